import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { systemClock } from '../../src/clock.js';
import { tally } from '../support/concurrency.js';
import { describeEachDialect } from '../support/databases.js';
import { basic, createOAuthTenant, type OAuthTenant } from '../support/oauth-fixtures.js';
import { assertResponseMatches } from '../support/openapi-contract.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import {
  admitInterviewee,
  insertOpenEvent,
  interviewerBrowser,
  temporaryRecordingsDir,
  type LobbyBrowser,
} from '../recordings/interview-in-progress.js';

/** Bytes that are neither gzip, nor deflate, nor br. */
const GARBAGE = Buffer.from(
  'these bytes were never compressed by anything at all\u0000\u00ff',
  'latin1',
);
const ENCODINGS = ['gzip', 'deflate', 'br', 'x-unknown'] as const;
type Encoding = (typeof ENCODINGS)[number];
const COMPRESS: Record<Exclude<Encoding, 'x-unknown'>, (data: Buffer) => Buffer> = {
  gzip: gzipSync,
  deflate: deflateSync,
  br: brotliCompressSync,
};
/** Each pair is sent this many times, so that both workers answer it. */
const ROUNDS = 3;

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

/** One endpoint that reads a body: how to call it, and what its error format looks like. */
interface Endpoint {
  name: string;
  send(body: Buffer, encoding: string): Promise<Answer>;
  /** A body the endpoint accepts (before compression). */
  valid: Buffer;
  accepted: number;
  /** Asserts that `answer` is a refusal with `status` in the endpoint's own format. */
  assertRefusal(answer: Answer, status: number): void;
}

/**
 * Issue 18, item 6: a body whose Content-Encoding (gzip, deflate, br) does not decode got 500 on
 * the token, revoke, introspect, GraphQL and recording-chunk endpoints. Every endpoint that reads
 * a body, with each encoding: a 400 (415 for an encoding the service does not support) in the
 * endpoint's own format, never a 5xx; and a body that does decode still works.
 */
describeEachDialect('reliability: request bodies that do not decode', (database) => {
  let service: ServiceProcess | undefined;
  let tenant: OAuthTenant;
  let recordingsDir: string;
  let lobby: { browser: LobbyBrowser; path: string; recordingId: string };

  before(async function () {
    this.timeout(120_000);
    tenant = await createOAuthTenant(database().db, systemClock, 'encodings');
    recordingsDir = temporaryRecordingsDir();
    service = await startServiceProcess(database(), { RECORDINGS_DIR: recordingsDir }, 'cluster');
    const owner = { userId: tenant.user.id, employerId: tenant.employer.id, appId: tenant.app.id };
    const event = await insertOpenEvent(database().db, owner);
    const browser = await interviewerBrowser(service.url, event, event.emails[0]);
    await admitInterviewee(service.url, event, browser);
    const started = await browser.request(`${event.interviewerPath}/recordings`, {
      method: 'POST',
      headers: { 'x-csrf-token': browser.csrfToken },
    });
    assert.equal(started.status, 201);
    const { id } = (await started.json()) as { id: string };
    lobby = { browser, path: event.interviewerPath, recordingId: id };
  });

  after(async () => {
    await service?.stop();
    if (recordingsDir) rmSync(recordingsDir, { recursive: true, force: true });
  });

  it('answers every endpoint × encoding of an undecodable body with a 4xx in its format', async function () {
    this.timeout(120_000);
    const endpoints = await endpointsOf(service!.url, tenant, lobby);
    const statuses: Record<string, Record<string, number>> = {};
    const problems: string[] = [];
    for (const endpoint of endpoints) {
      const answers: number[] = [];
      for (const encoding of ENCODINGS) {
        const expected = encoding === 'x-unknown' ? 415 : 400;
        for (let round = 0; round < ROUNDS; round++) {
          const answer = await endpoint.send(GARBAGE, encoding);
          answers.push(answer.status);
          try {
            endpoint.assertRefusal(answer, expected);
          } catch (error) {
            problems.push(
              `${endpoint.name} ${encoding}: ${(error as Error).message.split('\n')[0]}`,
            );
          }
        }
      }
      statuses[endpoint.name] = tally(answers, String);
    }
    console.log(`      statuses: ${JSON.stringify(statuses)}`);
    const serverErrors = Object.values(statuses)
      .flatMap((counts) => Object.entries(counts))
      .filter(([status]) => Number(status) >= 500)
      .reduce((sum, [, count]) => sum + count, 0);
    assert.equal(serverErrors, 0, `5xx answers:\n${problems.join('\n')}`);
    assert.deepEqual(problems, []);
    assert.deepEqual(service!.crashes(), [], service!.output());
  });

  it('answers a form of more parameters than the parser reads with a 413, not a 500', async () => {
    const form = Array.from({ length: 1200 }, (_, i) => `p${i}=1`).join('&');
    for (const path of ['/oauth/v2/tokens', '/oauth/v2/revoke', '/oauth/v2/introspect']) {
      const response = await fetch(`${service!.url}${path}`, {
        method: 'POST',
        headers: {
          ...basic(tenant.app.client_id, tenant.app.secret),
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: form,
      });
      const body = (await response.json()) as { error: string };
      assert.equal(response.status, 413, `${path}: ${JSON.stringify(body)}`);
      assert.equal(body.error, 'payload_too_large');
      assertResponseMatches('POST', path, {
        status: response.status,
        headers: response.headers,
        body,
      });
    }
  });

  it('still accepts a body that does decode, in each encoding', async function () {
    this.timeout(60_000);
    const endpoints = await endpointsOf(service!.url, tenant, lobby);
    for (const endpoint of endpoints) {
      for (const [encoding, compress] of Object.entries(COMPRESS)) {
        const answer = await endpoint.send(compress(endpoint.valid), encoding);
        assert.equal(
          answer.status,
          endpoint.accepted,
          `${endpoint.name} ${encoding}: ${answer.text}`,
        );
      }
    }
  });
});

async function endpointsOf(
  url: string,
  tenant: OAuthTenant,
  lobby: { browser: LobbyBrowser; path: string; recordingId: string },
): Promise<Endpoint[]> {
  const client = basic(tenant.app.client_id, tenant.app.secret);
  const post = async (path: string, headers: Record<string, string>, body: Buffer) => {
    const response = await fetch(`${url}${path}`, { method: 'POST', headers, body });
    return { status: response.status, headers: response.headers, text: await response.text() };
  };
  const issue = async () => {
    const issued = await post(
      '/oauth/v2/tokens',
      { ...client, 'content-type': 'application/x-www-form-urlencoded' },
      Buffer.from('grant_type=client_credentials'),
    );
    assert.equal(issued.status, 200, issued.text);
    return (JSON.parse(issued.text) as { access_token: string }).access_token;
  };
  const accessToken = await issue();
  // Revoked by the revoke endpoint's accepted requests; the others keep using accessToken.
  const doomedToken = await issue();
  const form = (fields: Record<string, string>) =>
    Buffer.from(new URLSearchParams(fields).toString());

  const oauth = (name: string, path: string, valid: Buffer): Endpoint => ({
    name,
    valid,
    accepted: 200,
    send: (body, encoding) =>
      post(
        path,
        {
          ...client,
          'content-type': 'application/x-www-form-urlencoded',
          'content-encoding': encoding,
        },
        body,
      ),
    assertRefusal(answer, status) {
      assert.equal(answer.status, status, answer.text);
      const body = JSON.parse(answer.text) as { error: string };
      assert.equal(body.error, status === 400 ? 'invalid_request' : 'unsupported_media_type');
      assertResponseMatches('POST', path, { ...answer, body });
    },
  });

  // The chunk sequence moves on with each accepted chunk.
  let nextSeq = 0;
  const chunkPath = () => `${lobby.path}/recordings/${lobby.recordingId}/chunks/${nextSeq}`;
  const html = (
    name: string,
    send: Endpoint['send'],
    valid: Buffer,
    accepted: number,
  ): Endpoint => ({
    name,
    valid,
    accepted,
    send,
    assertRefusal(answer, status) {
      assert.equal(answer.status, status, answer.text.slice(0, 200));
      assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
    },
  });
  const endpoints: Endpoint[] = [
    oauth('token', '/oauth/v2/tokens', form({ grant_type: 'client_credentials' })),
    oauth('revoke', '/oauth/v2/revoke', form({ token: doomedToken })),
    oauth('introspect', '/oauth/v2/introspect', form({ token: accessToken })),
    {
      name: 'graphql',
      valid: Buffer.from(JSON.stringify({ query: '{ __typename }' })),
      accepted: 200,
      send: (body, encoding) =>
        post(
          '/graphql',
          {
            authorization: `Bearer ${accessToken}`,
            'content-type': 'application/json',
            'content-encoding': encoding,
          },
          body,
        ),
      assertRefusal(answer, status) {
        assert.equal(answer.status, status, answer.text);
        const body = JSON.parse(answer.text) as { errors: Array<{ extensions: { code: string } }> };
        const code = status === 400 ? 'GRAPHQL_PARSE_FAILED' : 'BAD_USER_INPUT';
        assert.deepEqual(
          body.errors.map((error) => error.extensions.code),
          [code],
        );
        assertResponseMatches('POST', '/graphql', { ...answer, body });
      },
    },
    {
      name: 'recording chunk',
      valid: Buffer.from('a chunk of a recording'),
      accepted: 204,
      async send(body, encoding) {
        const response = await lobby.browser.request(chunkPath(), {
          method: 'PUT',
          body,
          headers: {
            'x-csrf-token': lobby.browser.csrfToken,
            'content-type': 'application/octet-stream',
            'content-encoding': encoding,
          },
        });
        if (response.status === 204) nextSeq += 1;
        return { status: response.status, headers: response.headers, text: await response.text() };
      },
      assertRefusal(answer, status) {
        assert.equal(answer.status, status, answer.text);
        const body = JSON.parse(answer.text) as Record<string, unknown>;
        assert.deepEqual(Object.keys(body), ['error']);
        assert.equal(typeof body.error, 'string');
      },
    },
    html(
      'console sign-in',
      async (body, encoding) => {
        const response = await fetch(`${url}/console/sign-in`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'content-encoding': encoding,
          },
          body,
        });
        return { status: response.status, headers: response.headers, text: await response.text() };
      },
      // Read, and refused for want of a CSRF token (an unreadable body would be a 400).
      form({ email: tenant.user.email, password: 'not the password' }),
      403,
    ),
    html(
      'lobby identify',
      async (body, encoding) => {
        const response = await lobby.browser.request(`${lobby.path}/identify`, {
          method: 'POST',
          body,
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'content-encoding': encoding,
          },
        });
        return { status: response.status, headers: response.headers, text: await response.text() };
      },
      form({ csrf_token: lobby.browser.csrfToken, email: 'lee@example.com' }),
      303,
    ),
  ];
  return endpoints;
}
