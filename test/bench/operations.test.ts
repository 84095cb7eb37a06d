import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { buildSchema, parse, validate } from 'graphql';
import * as operations from '../../bench/operations.js';

const schema = buildSchema(readFileSync(new URL('../../schema.graphql', import.meta.url), 'utf8'));

describe('benchmark GraphQL operations', () => {
  const documents = Object.entries(operations as Record<string, unknown>).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  );

  it('has the operations of every GraphQL scenario', () => {
    assert.ok(documents.length >= 5, `only ${documents.length} documents`);
  });

  for (const [name, document] of documents) {
    it(`${name} is valid against schema.graphql`, () => {
      assert.deepEqual(
        validate(schema, parse(document)).map((error) => error.message),
        [],
      );
    });
  }
});
