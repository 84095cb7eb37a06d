import assert from 'node:assert/strict';
import { ValidationError } from '../../src/errors.js';
import { EventCursors, type CursorScope } from '../../src/interviews/event-cursor.js';
import { eventOrder } from '../../src/interviews/event-sort.js';

const SECRET = 'cursor-test-secret-0123456789abcdef';
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

const scope: CursorScope = {
  employerId: '5b0c6f5e-2f0a-4a40-9d7e-0f3c1f7a9a11',
  order: eventOrder([
    { field: 'END_TIME', order: 'DESC' },
    { field: 'START_TIME', order: 'ASC' },
  ]),
  filters: {
    startAt: { from: 1_775_000_000_000, until: null },
    endAt: { from: null, until: null },
  },
};
const [endAt, startAt, id] = [
  1_775_100_000_000,
  1_775_097_300_000,
  '0f8e4c52-3a43-4f55-9a3e-1c5d1f0b6c77',
];
const position = [endAt, startAt, id];

function assertNotACursor(decode: () => unknown) {
  assert.throws(decode, (error: unknown) => {
    assert.ok(error instanceof ValidationError);
    assert.equal(error.field, 'after');
    assert.match(error.message, /after is not a cursor from this query/);
    return true;
  });
}

describe('event cursors', () => {
  const cursors = new EventCursors(SECRET);
  const cursor = cursors.encode(position, scope);

  it('are URL-safe and give back the position they were made from', () => {
    assert.match(cursor, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    assert.deepEqual(cursors.decode(cursor, scope), position);
    assert.deepEqual(new EventCursors(SECRET).decode(cursor, { ...scope }), position);
  });

  it('refuse every single-character change', () => {
    for (let index = 0; index < cursor.length; index += 1) {
      for (const replacement of [...BASE64URL, '.', '=']) {
        if (replacement === cursor[index]) continue;
        const changed = cursor.slice(0, index) + replacement + cursor.slice(index + 1);
        assertNotACursor(() => cursors.decode(changed, scope));
      }
    }
  });

  it('refuse a cursor made with another secret', () => {
    const foreign = new EventCursors(`${SECRET}-other`).encode(position, scope);
    assertNotACursor(() => cursors.decode(foreign, scope));
  });

  it('are bound to the employer, the sort and the filters', () => {
    const otherScopes: CursorScope[] = [
      { ...scope, employerId: '9d1e2c4b-7a55-4f0e-8b1a-2f4c6d8e0a12' },
      { ...scope, order: eventOrder([{ field: 'END_TIME', order: 'DESC' }]) },
      {
        ...scope,
        order: eventOrder([
          { field: 'END_TIME', order: 'DESC' },
          { field: 'START_TIME', order: 'DESC' },
        ]),
      },
      {
        ...scope,
        filters: { ...scope.filters, startAt: { from: 1_775_000_000_001, until: null } },
      },
      { ...scope, filters: { ...scope.filters, endAt: { from: null, until: 1_776_000_000_000 } } },
    ];
    for (const other of otherScopes) assertNotACursor(() => cursors.decode(cursor, other));
  });

  it('refuse malformed text', () => {
    for (const text of ['', '.', 'abc', 'abc.def', `${cursor}.`, `.${cursor}`, cursor.repeat(5)]) {
      assertNotACursor(() => cursors.decode(text, scope));
    }
  });

  it('check the shape of the position even behind a valid tag', () => {
    const wrongShapes = [
      [startAt, id],
      [endAt, startAt, id, 'extra'],
      [String(endAt), startAt, id],
      [endAt, 1.5, id],
      [endAt, startAt, 'x'.repeat(37)],
    ];
    for (const shape of wrongShapes) {
      const made = cursors.encode(shape, scope);
      assertNotACursor(() => cursors.decode(made, scope));
    }
  });
});
