import assert from 'node:assert/strict';
import {
  createRemoteJWKSet,
  customFetch,
  decodeProtectedHeader,
  errors,
  jwtVerify,
  type JWTVerifyGetKey,
} from 'jose';
import { runProgram } from '../../src/cli/program.js';
import { testCliServices } from '../support/compose.js';
import { ManualClock } from '../../src/clock.js';
import { migrationSource } from '../../src/db/migrations/index.js';
import { SigningKeyStore } from '../../src/oauth/signing-keys/signing-key-store.js';
import {
  KEY_CACHE_TTL_MS,
  KEY_GRACE_PERIOD_MS,
  SigningKeys,
} from '../../src/oauth/signing-keys/signing-keys.js';
import { SecretBox } from '../../src/security/secret-box.js';
import { describeEachDialect } from '../support/databases.js';
import { silentLogger } from '../support/logger.js';
import { basic, callApi, createOAuthTenant, type OAuthTenant } from '../support/oauth-fixtures.js';
import { TEST_KEY_ENCRYPTION_SECRET, startTestService } from '../support/service.js';

const DELAY_MS = 120_000;
/** jose's and openid-client's least time between two fetches of a JWKS. */
const CLIENT_COOL_DOWN_MS = 30_000;

describeEachDialect('signing key rotation seen by clients', (database) => {
  const clock = new ManualClock();
  let service: Awaited<ReturnType<typeof startTestService>>;
  let tenant: OAuthTenant;

  before(async () => {
    service = await startTestService(database(), { clock });
    tenant = await createOAuthTenant(database().db, clock, 'ada');
  });
  after(async () => {
    await service?.stop();
  });

  /** `keys rotate` as an operator runs it: another process, sharing only the database. */
  async function rotateWithCli(...options: string[]) {
    let stdout = '';
    const io = { stdout: (text: string) => void (stdout += text), stderr: () => {} };
    const code = await runProgram(['--json', 'keys', 'rotate', ...options], io, async () =>
      testCliServices(database().db, { clock }),
    );
    assert.equal(code, 0);
    const { rotated } = JSON.parse(stdout) as {
      rotated: Array<{ alg: string; kid: string; activates_at: string }>;
    };
    const es256 = rotated.find((key) => key.alg === 'ES256')!;
    return { kid: es256.kid, activatesAt: Date.parse(es256.activates_at) };
  }
  async function accessToken(): Promise<string> {
    const response = await callApi(service.url, 'POST', '/oauth/v2/tokens', {
      form: { grant_type: 'client_credentials', scope: 'employer_access' },
      headers: basic(tenant.app.client_id, tenant.app.secret),
    });
    assert.equal(response.status, 200);
    return response.body.access_token;
  }
  const kidOf = async (token: Promise<string> | string) => decodeProtectedHeader(await token).kid;
  const verify = (token: string, jwks: JWTVerifyGetKey) =>
    jwtVerify(token, jwks, {
      issuer: service.config.authUrl,
      audience: service.config.apiUrl,
      typ: 'at+jwt',
      currentDate: new Date(clock.now()),
    });
  /** A jose client as resource servers hold one, counting its fetches of the JWKS. */
  function remoteJwks() {
    const client = {
      fetches: 0,
      jwks: undefined as unknown as ReturnType<typeof createRemoteJWKSet>,
    };
    client.jwks = createRemoteJWKSet(new URL(`${service.url}/.well-known/keys`), {
      [customFetch]: (url, options) => {
        client.fetches += 1;
        return fetch(url, options);
      },
    });
    return client;
  }

  // jose's cool-down runs on real time while the service's clock is moved by hand: each test
  // takes far less than the 30 s cool-down, so a client that fetched once cannot fetch again.

  it('publishes a rotated key before it signs: a client that fetched the JWKS just after the rotation verifies the first token signed with it, without refetching', async () => {
    const oldKid = await kidOf(accessToken());
    clock.advance(KEY_CACHE_TTL_MS); // the service rereads its keys at its next request

    const rotated = await rotateWithCli();
    assert.equal(rotated.activatesAt, clock.now() + DELAY_MS);
    const client = remoteJwks();
    const tokenAtRotation = await accessToken();
    assert.equal(await kidOf(tokenAtRotation), oldKid, 'the new key does not sign yet');
    await verify(tokenAtRotation, client.jwks);
    assert.equal(client.fetches, 1);
    assert.ok(
      client.jwks.jwks()!.keys.some((key) => key.kid === rotated.kid),
      'the set fetched just after the rotation lists the new key',
    );

    clock.set(rotated.activatesAt - 1);
    assert.equal(await kidOf(accessToken()), oldKid, 'the old key signs until the activation');
    clock.set(rotated.activatesAt);
    const first = await accessToken();
    assert.equal(await kidOf(first), rotated.kid, 'the new key signs from its activation');

    const { payload } = await verify(first, client.jwks);
    assert.equal(payload.client_id, tenant.app.client_id);
    assert.equal(client.fetches, 1, 'no refetch');
    assert.ok(client.jwks.coolingDown, 'the client could not have refetched');
  });

  it('leaves room for every cache between the database and the client before a key signs', async () => {
    clock.advance(KEY_CACHE_TTL_MS);
    await accessToken(); // the service rereads its keys just before the rotation
    const rotatedAt = clock.now();
    const rotated = await rotateWithCli();
    const listed = async () => {
      const response = await callApi(service.url, 'GET', '/.well-known/keys');
      const maxAge = Number(/max-age=(\d+)/.exec(response.headers.get('cache-control')!)![1]);
      const kids = (response.body.keys as Array<{ kid: string }>).map((key) => key.kid);
      return { maxAgeMs: maxAge * 1000, hasNewKey: kids.includes(rotated.kid) };
    };

    assert.equal((await listed()).hasNewKey, false, 'a process may answer from its key cache');
    clock.set(rotatedAt + KEY_CACHE_TTL_MS);
    const { maxAgeMs, hasNewKey } = await listed();
    assert.ok(hasNewKey, 'every process lists the new key once its cache expires');
    // The stalest set a client can hold was served just before that, possibly from an HTTP
    // cache for max-age more; the client refetches after its cool-down, all before activation.
    assert.ok(
      rotatedAt + KEY_CACHE_TTL_MS + maxAgeMs + CLIENT_COOL_DOWN_MS < rotated.activatesAt,
      `activation ${rotated.activatesAt - rotatedAt} ms after rotation leaves no margin`,
    );
    clock.set(rotated.activatesAt);
  });

  it('signs at once after an emergency rotation, which clients holding the old set may briefly refuse', async () => {
    const client = remoteJwks();
    await verify(await accessToken(), client.jwks);
    const rotated = await rotateWithCli('--immediately');
    assert.equal(rotated.activatesAt, clock.now());

    clock.advance(KEY_CACHE_TTL_MS); // the service rereads its keys
    const token = await accessToken();
    assert.equal(await kidOf(token), rotated.kid, 'the service signs with the new key');
    await assert.rejects(verify(token, client.jwks), errors.JWKSNoMatchingKey);
    assert.equal(client.fetches, 1, 'the client is cooling down');
    await client.jwks.reload(); // what its cool-down allows 30 s later
    await verify(token, client.jwks);
  });
});

describeEachDialect('signing keys', (database) => {
  const clock = new ManualClock(Date.UTC(2026, 0, 5, 9));
  const keysOf = (delayMs = DELAY_MS) =>
    new SigningKeys(
      new SigningKeyStore(database().db),
      new SecretBox(TEST_KEY_ENCRYPTION_SECRET, 'signing-keys'),
      clock,
      silentLogger,
      delayMs,
    );
  const states = async (keys: SigningKeys) =>
    Object.fromEntries(
      (await keys.list()).filter((key) => key.alg === 'ES256').map((key) => [key.kid, key.state]),
    );

  beforeEach(async () => {
    await database().db('signing_keys').delete();
  });

  it('makes the first keys of a fresh database sign at once', async () => {
    const keys = keysOf();
    await keys.ensureActiveKeys();
    const [listed] = (await keys.list()).filter((key) => key.alg === 'ES256');
    assert.equal(listed!.state, 'active');
    assert.equal(listed!.activates_at, clock.now());
    assert.equal((await keys.signer('ES256')).kid, listed!.kid);
    assert.equal((await keys.signer('RS256')).alg, 'RS256');
  });

  it('supersedes the old key as of the new one’s activation and retires it a grace period later', async () => {
    const keys = keysOf();
    await keys.ensureActiveKeys();
    const oldKid = (await keys.signer('ES256')).kid;
    const rotatedAt = clock.now();
    const [rotated] = await keys.rotate();
    assert.deepEqual(rotated, {
      alg: 'ES256',
      kid: rotated!.kid,
      replaced: oldKid,
      activates_at: rotatedAt + DELAY_MS,
    });
    assert.deepEqual(await states(keys), { [oldKid]: 'active', [rotated!.kid]: 'pending' });
    const jwks = (await keys.jwks()).keys.map((key) => key.kid);
    assert.ok(jwks.includes(rotated!.kid), 'a pending key is published');

    const old = (await keys.list()).find((key) => key.kid === oldKid)!;
    assert.equal(old.superseded_at, rotatedAt + DELAY_MS);
    assert.equal(old.retires_at, rotatedAt + DELAY_MS + KEY_GRACE_PERIOD_MS);

    clock.set(rotatedAt + DELAY_MS);
    assert.equal((await keys.signer('ES256')).kid, rotated!.kid);
    assert.deepEqual(await states(keys), { [oldKid]: 'superseded', [rotated!.kid]: 'active' });
    clock.set(rotatedAt + DELAY_MS + KEY_GRACE_PERIOD_MS);
    assert.deepEqual(await states(keys), { [rotated!.kid]: 'active' });
    assert.equal(await keys.verificationKey(oldKid, 'ES256'), undefined);
  });

  it('chains rotations made while a key is still pending', async () => {
    const keys = keysOf();
    await keys.ensureActiveKeys();
    const start = clock.now();
    const [second] = await keys.rotate();
    clock.advance(10_000);
    const [third] = await keys.rotate();
    assert.equal(third!.replaced, second!.kid);

    clock.set(start + DELAY_MS);
    assert.equal((await keys.signer('ES256')).kid, second!.kid, 'the second key has its turn');
    clock.set(start + 10_000 + DELAY_MS);
    assert.equal((await keys.signer('ES256')).kid, third!.kid);
  });

  it('lets an immediate rotation overtake a pending key, which then never signs', async () => {
    const keys = keysOf();
    await keys.ensureActiveKeys();
    const oldKid = (await keys.signer('ES256')).kid;
    const [pending] = await keys.rotate();
    clock.advance(10_000);
    const [urgent] = await keys.rotate({ immediately: true });
    assert.equal(urgent!.activates_at, clock.now());
    assert.equal((await keys.signer('ES256')).kid, urgent!.kid);
    assert.deepEqual(await states(keys), {
      [oldKid]: 'superseded',
      [pending!.kid]: 'superseded',
      [urgent!.kid]: 'active',
    });
    clock.advance(DELAY_MS);
    assert.equal((await keys.signer('ES256')).kid, urgent!.kid);
  });

  it('lets another process see a rotation within its key cache lifetime', async () => {
    const cli = keysOf();
    await cli.ensureActiveKeys();
    const server = keysOf();
    const oldKid = (await server.signer('ES256')).kid;
    const [rotated] = await cli.rotate();
    assert.ok(!(await server.jwks()).keys.some((key) => key.kid === rotated!.kid), 'cached');
    clock.advance(KEY_CACHE_TTL_MS);
    assert.ok((await server.jwks()).keys.some((key) => key.kid === rotated!.kid));
    assert.equal((await server.signer('ES256')).kid, oldKid);
    clock.advance(DELAY_MS - KEY_CACHE_TTL_MS);
    assert.equal((await server.signer('ES256')).kid, rotated!.kid);
  });

  it('takes existing keys as active since their creation when the column is added', async () => {
    const { db } = database();
    const config = { migrationSource, tableName: 'knex_migrations' };
    await keysOf().ensureActiveKeys();
    await db.migrate.down({ ...config, name: '0009_signing_key_activation' });
    const createdAt = clock.now() - 86_400_000;
    await db('signing_keys').update({ created_at: createdAt });
    await db.migrate.up({ ...config, name: '0009_signing_key_activation' });
    const rows = await db('signing_keys').select('activates_at');
    assert.equal(rows.length, 2);
    for (const row of rows) assert.equal(Number(row.activates_at), createdAt);
  });
});
