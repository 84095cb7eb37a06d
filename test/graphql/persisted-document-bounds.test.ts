import assert from 'node:assert/strict';
import { ManualClock } from '../../src/clock.js';
import { ValidationError } from '../../src/errors.js';
import { composeDocumentRegistration } from '../../src/graphql/persisted/compose.js';
import { PersistedDocumentStore } from '../../src/graphql/persisted/persisted-document-store.js';
import { PersistedDocuments } from '../../src/graphql/persisted/persisted-documents.js';
import { documentHash } from '../../src/graphql/persisted/persisted-request.js';
import { testSharedDependencies } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { gatewayApis } from '../support/gateway-schema.js';

const text = (name: string) => `query ${name} { __typename }`;

describeEachDialect('persisted documents: a bounded store', (database) => {
  const clock = new ManualClock(Date.parse('2030-01-01T00:00:00Z'));
  const MAX = 4;
  let documents: PersistedDocuments;

  beforeEach(async () => {
    await database().db('persisted_documents').delete();
    documents = new PersistedDocuments(new PersistedDocumentStore(database().db), clock, MAX);
  });

  async function store(source: 'automatic' | 'registered', name: string) {
    clock.advance(1000);
    const hash = documentHash(text(name));
    return source === 'automatic'
      ? documents.storeAutomatic(hash, text(name))
      : documents.register(hash, text(name));
  }

  async function storedNames(): Promise<string[]> {
    const rows: Array<{ document: string }> = await database()
      .db('persisted_documents')
      .select('document')
      .orderBy('registered_at');
    return rows.map((row) => /query (\w+)/.exec(row.document)![1]!);
  }

  it('evicts the oldest automatic documents to make room, never a registered one', async () => {
    assert.equal(await store('registered', 'Pinned'), 'stored');
    for (const name of ['A1', 'A2', 'A3']) assert.equal(await store('automatic', name), 'stored');
    assert.equal(await store('automatic', 'A4'), 'stored');
    assert.deepEqual(await storedNames(), ['Pinned', 'A2', 'A3', 'A4']);
    assert.equal(await store('registered', 'Pinned2'), 'stored');
    assert.deepEqual(await storedNames(), ['Pinned', 'A3', 'A4', 'Pinned2']);
    assert.equal(await store('automatic', 'A3'), 'known');
    assert.deepEqual(await documents.counts(), { registered: 2, automatic: 2 });
  });

  it('stores nothing more once registered documents fill it, and evicts nothing for it', async () => {
    for (const name of ['P1', 'P2', 'P3']) await store('registered', name);
    await store('automatic', 'A1');
    // A registration of a known automatic document keeps it, registered.
    assert.equal(await store('registered', 'A1'), 'known');
    assert.deepEqual(await documents.counts(), { registered: 4, automatic: 0 });
    assert.equal(await store('automatic', 'A2'), 'full');
    assert.equal(await store('registered', 'P5'), 'full');
    assert.deepEqual(await storedNames(), ['P1', 'P2', 'P3', 'A1']);
  });

  it('keeps the bound under concurrent registrations', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 24 }, (_, index) =>
        documents.storeAutomatic(documentHash(text(`C${index}`)), text(`C${index}`)),
      ),
    );
    assert.ok(outcomes.every((outcome) => outcome === 'stored'));
    const counts = await documents.counts();
    assert.equal(counts.registered + counts.automatic, MAX);
  });

  it('`cli graphql persist` says when registered documents fill GRAPHQL_PERSISTED_DOCUMENTS_MAX', async () => {
    const registration = composeDocumentRegistration(
      testSharedDependencies(database().db, { env: { GRAPHQL_PERSISTED_DOCUMENTS_MAX: '2' } }),
      () => gatewayApis.schema,
    );
    const first = await registration.persist([
      { name: 'one.graphql', text: text('One') },
      { name: 'two.graphql', text: text('Two') },
    ]);
    assert.deepEqual(
      first.map((view) => view.outcome),
      ['stored', 'stored'],
    );
    await assert.rejects(
      registration.persist([{ name: 'three.graphql', text: text('Three') }]),
      (error: Error) =>
        error instanceof ValidationError &&
        /three\.graphql: registered documents fill GRAPHQL_PERSISTED_DOCUMENTS_MAX \(2\)/.test(
          error.message,
        ),
    );
    await assert.rejects(
      registration.persist([
        { name: 'big.graphql', text: `# ${'x'.repeat(200 * 1024)}\n{ __typename }` },
      ]),
      /big\.graphql: \d+ bytes, more than BODY_LIMIT_BYTES/,
    );
  });
});
