import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runProgram } from '../../src/cli/program.js';
import { documentCacheStats } from '../../src/graphql/document.js';
import { testCliServices } from '../support/compose.js';
import { describeEachDialect, type TestDatabase } from '../support/databases.js';
import { postGraphQL, withoutCost, type GraphQLBody } from '../support/graphql-client.js';
import { assertResponseMatches } from '../support/openapi-contract.js';
import { acceptTestToken, startTestService } from '../support/service.js';

const TYPENAME = 'query Typename { __typename }';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** POSTs any JSON body (the helpers only send well-formed requests), checked against openapi.yaml. */
async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: GraphQLBody }> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: {
      authorization: 'Bearer valid-test-token',
      'content-type': 'application/json',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const answer = {
    status: response.status,
    headers: response.headers,
    body: await response.json(),
  };
  assertResponseMatches('POST', '/graphql', answer);
  return { status: answer.status, body: withoutCost(answer.body as GraphQLBody) };
}

const apq = (hash: string, query?: string) => ({
  ...(query !== undefined && { query }),
  extensions: { persistedQuery: { version: 1, sha256Hash: hash } },
});

/** `cli graphql persist` over the test database; the parsed --json output. */
async function persist(database: TestDatabase, texts: string[], env: Record<string, string> = {}) {
  const directory = mkdtempSync(join(tmpdir(), 'persisted-'));
  const files = texts.map((text, index) => {
    const file = join(directory, `document-${index}.graphql`);
    writeFileSync(file, text);
    return file;
  });
  let stdout = '';
  let stderr = '';
  const code = await runProgram(
    ['--json', 'graphql', 'persist', ...files],
    { stdout: (text) => void (stdout += text), stderr: (text) => void (stderr += text) },
    async () => testCliServices(database.db, { env }),
  );
  return { code, stderr, output: code === 0 ? JSON.parse(stdout) : undefined };
}

async function storedRows(database: TestDatabase) {
  return database
    .db('persisted_documents')
    .select('hash', 'source')
    .orderBy([{ column: 'registered_at' }, { column: 'hash' }]);
}

describeEachDialect(
  'persisted documents: automatic persisted queries and documentId',
  (database) => {
    let service: Awaited<ReturnType<typeof startTestService>>;

    before(async () => {
      service = await startTestService(database(), { authenticate: acceptTestToken });
    });
    after(async () => {
      await service?.stop();
    });

    it('answers an unknown hash PERSISTED_QUERY_NOT_FOUND, then registers the text and runs by hash', async () => {
      const query = 'query Registered { __typename }';
      const hash = sha256(query);
      const unknown = await post(service.url, apq(hash));
      assert.equal(unknown.status, 200);
      assert.deepEqual(unknown.body, {
        errors: [
          {
            message: 'PersistedQueryNotFound',
            extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' },
          },
        ],
      });
      // GraphQL over HTTP's media type: a request error, as for a document that does not validate.
      const strict = await post(service.url, apq(hash), {
        accept: 'application/graphql-response+json',
      });
      assert.equal(strict.status, 400);
      assert.equal(strict.body.errors?.[0]?.extensions.code, 'PERSISTED_QUERY_NOT_FOUND');

      const registered = await post(service.url, apq(hash, query));
      assert.deepEqual(registered.body, { data: { __typename: 'Query' } });
      assert.deepEqual(await storedRows(database()), [{ hash, source: 'automatic' }]);

      const byHash = await post(service.url, apq(hash.toUpperCase()));
      assert.deepEqual(byHash.body, { data: { __typename: 'Query' } });
      const byDocumentId = await post(service.url, { documentId: `sha256:${hash}` });
      assert.deepEqual(byDocumentId.body, { data: { __typename: 'Query' } });
    });

    it('parses and validates a persisted document once, whatever names it', async () => {
      const query = 'query Once { __typename }';
      const hash = sha256(query);
      await post(service.url, apq(hash, query));
      const before = documentCacheStats();
      for (const body of [apq(hash), { documentId: hash }, { documentId: `sha256:${hash}` }]) {
        assert.deepEqual((await post(service.url, body)).body, { data: { __typename: 'Query' } });
      }
      const after = documentCacheStats();
      assert.equal(after.misses, before.misses, 'no request by hash parsed the document again');
      assert.equal(after.hits - before.hits, 3);
    });

    it('never lets a text that spells a hash stand for the persisted document', async () => {
      const query = 'query Spelled { __typename }';
      const hash = sha256(query);
      await post(service.url, apq(hash, query));
      const asText = await post(service.url, { query: hash });
      assert.equal(asText.body.errors?.[0]?.extensions.code, 'GRAPHQL_PARSE_FAILED');
      assert.deepEqual((await post(service.url, apq(hash))).body, {
        data: { __typename: 'Query' },
      });
    });

    it('refuses a text whose SHA-256 is not the hash sent with it, and stores nothing', async () => {
      const answer = await post(service.url, apq(sha256('query Other { __typename }'), TYPENAME));
      assert.equal(answer.status, 400);
      assert.equal(answer.body.errors?.[0]?.extensions.code, 'BAD_USER_INPUT');
      assert.match(answer.body.errors![0]!.message, /is not the SHA-256 of "query"/);
      const rows = await storedRows(database());
      assert.ok(!rows.some((row) => row.hash === sha256(TYPENAME)));
    });

    it('does not store a document that does not validate', async () => {
      const query = 'query Invalid { noSuchField }';
      const answer = await post(service.url, apq(sha256(query), query));
      assert.equal(answer.body.errors?.[0]?.extensions.code, 'GRAPHQL_VALIDATION_FAILED');
      const rows = await storedRows(database());
      assert.ok(!rows.some((row) => row.hash === sha256(query)));
      assert.equal(
        (await post(service.url, apq(sha256(query)))).body.errors?.[0]?.extensions.code,
        'PERSISTED_QUERY_NOT_FOUND',
      );
    });

    it('answers hostile persisted-query input with a 400 BAD_USER_INPUT, never a 500', async () => {
      const hash = sha256(TYPENAME);
      const hostile: Array<[string, unknown, RegExp]> = [
        ['a huge hash', apq('a'.repeat(90_000)), /sha256Hash" must be the 64 hexadecimal/],
        ['a hash of 63 digits', apq(hash.slice(1)), /sha256Hash" must be the 64 hexadecimal/],
        ['a non-hexadecimal hash', apq('z'.repeat(64)), /sha256Hash" must be the 64 hexadecimal/],
        [
          'a numeric hash',
          { extensions: { persistedQuery: { version: 1, sha256Hash: 12 } } },
          /sha256Hash/,
        ],
        [
          'no version',
          { extensions: { persistedQuery: { sha256Hash: hash } } },
          /version" must be 1/,
        ],
        [
          'version 2',
          { extensions: { persistedQuery: { version: 2, sha256Hash: hash } } },
          /version" must be 1/,
        ],
        [
          'version "1"',
          { extensions: { persistedQuery: { version: '1', sha256Hash: hash } } },
          /version" must be 1/,
        ],
        [
          'a string persistedQuery',
          { extensions: { persistedQuery: hash } },
          /must be a JSON object/,
        ],
        [
          'an array persistedQuery',
          { extensions: { persistedQuery: [hash] } },
          /must be a JSON object/,
        ],
        ['a numeric documentId', { documentId: 7 }, /"documentId" must be "sha256:"/],
        [
          'a documentId of another hash',
          { documentId: `md5:${hash.slice(32)}` },
          /"documentId" must be/,
        ],
        [
          'a huge documentId',
          { documentId: `sha256:${'0'.repeat(90_000)}` },
          /"documentId" must be/,
        ],
        [
          'documentId with query',
          { documentId: hash, query: TYPENAME },
          /either "query" or "documentId"/,
        ],
        [
          'documentId with an APQ hash',
          { documentId: hash, ...apq(hash) },
          /either "documentId" or/,
        ],
        ['neither query nor hash', { variables: {} }, /Missing query/],
      ];
      for (const [what, body, message] of hostile) {
        const answer = await post(service.url, body);
        assert.equal(answer.status, 400, what);
        assert.equal(answer.body.errors?.[0]?.extensions.code, 'BAD_USER_INPUT', what);
        assert.match(answer.body.errors![0]!.message, message, what);
        assert.ok(answer.body.errors![0]!.message.length < 300, `${what}: the input is not echoed`);
      }
    });

    it('runs documents registered with `cli graphql persist` by documentId, bare hash or APQ hash', async () => {
      const text = 'query Pinned { __typename }\nquery PinnedToo { __typename }\n';
      const persisted = await persist(database(), [text]);
      assert.equal(persisted.code, 0, persisted.stderr);
      const documentId = `sha256:${sha256(text)}`;
      assert.deepEqual(persisted.output.documents, [
        {
          file: persisted.output.documents[0].file,
          document_id: documentId,
          operations: ['Pinned', 'PinnedToo'],
          outcome: 'stored',
        },
      ]);
      const answer = await post(service.url, { documentId, operationName: 'PinnedToo' });
      assert.deepEqual(answer.body, { data: { __typename: 'Query' } });
      assert.equal((await persist(database(), [text])).output.documents[0].outcome, 'known');

      const unknown = await post(service.url, {
        documentId: `sha256:${sha256('query Nope { __typename }')}`,
      });
      assert.equal(unknown.body.errors?.[0]?.extensions.code, 'PERSISTED_QUERY_NOT_FOUND');
      assert.match(unknown.body.errors![0]!.message, /cli graphql persist/);
    });

    it('refuses to register a document that does not validate, and registers none of the files', async () => {
      const valid = 'query FirstFile { __typename }';
      const refused = await persist(database(), [valid, '{ noSuchField }']);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /document-1\.graphql: Cannot query field "noSuchField"/);
      const rows = await storedRows(database());
      assert.ok(!rows.some((row) => row.hash === sha256(valid)));
    });
  },
);

describeEachDialect('persisted documents: GRAPHQL_PERSISTED_ONLY=on', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  const registered = 'query Allowed { __typename }';

  before(async () => {
    service = await startTestService(database(), {
      authenticate: acceptTestToken,
      env: { GRAPHQL_PERSISTED_ONLY: 'on' },
    });
    assert.equal((await persist(database(), [registered])).code, 0);
  });
  after(async () => {
    await service?.stop();
  });

  it('refuses an ad-hoc document with PERSISTED_QUERY_REQUIRED', async () => {
    const answer = await postGraphQL(service.url, 'valid-test-token', { query: TYPENAME });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.data, undefined);
    assert.equal(answer.body.errors?.[0]?.extensions.code, 'PERSISTED_QUERY_REQUIRED');
    assert.match(answer.body.errors![0]!.message, /persisted documents only/);
    // Even the text of a registered document, sent as text.
    const asText = await postGraphQL(service.url, 'valid-test-token', { query: registered });
    assert.equal(asText.body.errors?.[0]?.extensions.code, 'PERSISTED_QUERY_REQUIRED');
  });

  it('refuses to register a document through APQ, and stores nothing', async () => {
    const query = 'query Sneaked { __typename }';
    const hash = sha256(query);
    assert.equal(
      (await post(service.url, apq(hash))).body.errors?.[0]?.extensions.code,
      'PERSISTED_QUERY_NOT_FOUND',
    );
    const registration = await post(service.url, apq(hash, query));
    assert.equal(registration.body.errors?.[0]?.extensions.code, 'PERSISTED_QUERY_REQUIRED');
    assert.equal(
      (await database().db('persisted_documents').where({ hash })).length,
      0,
      'nothing was stored',
    );
  });

  it('runs a registered document by documentId, by APQ hash, and by APQ hash with its text', async () => {
    const hash = sha256(registered);
    for (const body of [{ documentId: `sha256:${hash}` }, apq(hash), apq(hash, registered)]) {
      assert.deepEqual((await post(service.url, body)).body, { data: { __typename: 'Query' } });
    }
  });
});
