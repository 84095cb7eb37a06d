import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import { runConcurrently } from '../support/concurrency.js';
import { describeEachDialect } from '../support/databases.js';
import { basic, callApi, createOAuthTenant, type OAuthTenant } from '../support/oauth-fixtures.js';
import { startTestService } from '../support/service.js';
import { disposition, distinctDispositions, enableDispositionSync, SEND } from './fixtures.js';

/**
 * Disposition Sync as a partner's code calls it: hacktoolkit/django-htk's
 * `IndeedDispositionSyncAPI` takes a client-credentials token with `scope=employer_access` and
 * no employer (HTTP Basic), POSTs `{query, variables: {input: {dispositions}}}` and reads
 * `data.partnerDisposition.send.numberGoodDispositions` and the `indeedApplyID` of each failed
 * disposition. Here the same requests go over plain fetch, as `requests.post` sends them.
 */
describeEachDialect('Disposition Sync: a partner client as the public ones call it', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  let tenant: OAuthTenant;

  before(async () => {
    service = await startTestService(database());
    tenant = await createOAuthTenant(database().db, systemClock, 'htk');
  });
  after(async () => {
    await service?.stop();
  });

  async function storedCount(): Promise<number> {
    const row = await database().db('partner_dispositions').count({ n: '*' }).first();
    return Number(row!.n);
  }

  /** `generate_access_token()`: client credentials, `scope=employer_access`, Basic auth. */
  async function accessToken(scope: string | null = 'employer_access'): Promise<string> {
    const { status, body } = await callApi(service.url, 'POST', '/oauth/v2/tokens', {
      form: { grant_type: 'client_credentials', ...(scope && { scope }) },
      headers: basic(tenant.app.client_id, tenant.app.secret),
    });
    assert.equal(status, 200, JSON.stringify(body));
    return body.access_token as string;
  }

  /** `sync()`: the mutation and variables exactly as the client sends them. */
  async function sync(token: string, dispositions: object[]) {
    const response = await fetch(`${service.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: SEND, variables: { input: { dispositions } } }),
    });
    return { status: response.status, json: (await response.json()) as any };
  }

  /** `handle_response()`: the good count and the failed Indeed Apply IDs. */
  function handled({ status, json }: { status: number; json: any }) {
    assert.equal(status, 200);
    const sent = json.data.partnerDisposition.send;
    return {
      good: sent.numberGoodDispositions as number,
      failedIds: (sent.failedDispositions as any[]).map((item) => item.identifiedBy.indeedApplyID),
    };
  }

  it('is refused with the platform wording until the app is enabled for the API', async () => {
    const token = await accessToken();
    const { status, json } = await sync(token, [disposition()]);
    assert.equal(status, 200);
    assert.deepEqual(json.data, { partnerDisposition: null });
    assert.equal(json.errors.length, 1);
    assert.equal(json.errors[0].extensions.code, 'FORBIDDEN');
    assert.equal(json.errors[0].extensions.api, 'disposition-sync');
    assert.match(json.errors[0].message, /^Client is not authorized: /);
    assert.equal(await storedCount(), 0);
  });

  it('gets the documented answer: the good count and the failed ids', async () => {
    await enableDispositionSync(database().db, tenant.app.id);
    const token = await accessToken();
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const dispositions = [
      ...distinctDispositions(3, 'htk'),
      disposition({ identifiedBy: { indeedApplyID: 'htk-future' }, statusChangeDateTime: future }),
    ];
    assert.deepEqual(handled(await sync(token, dispositions)), {
      good: 3,
      failedIds: ['htk-future'],
    });
    const { json } = await sync(token, [disposition({ identifiedBy: {} })]);
    assert.deepEqual(json.data, { partnerDisposition: { send: null } });
    assert.equal(
      json.errors[0].message,
      'PartnerDispositionIdentifierInput must specify one of indeedApplyID, ittk, universalApplyId, or alternateIdentifier',
    );
    assert.equal(json.errors[0].extensions.code, 'BAD_USER_INPUT');
  });

  it('refuses a token without employer_access even for an enabled app', async () => {
    const { json } = await sync(await accessToken(null), [disposition()]);
    assert.deepEqual(json.data, { partnerDisposition: null });
    assert.equal(json.errors[0].extensions.code, 'FORBIDDEN');
    assert.match(json.errors[0].message, /^Client is not authorized: .*employer_access/);
  });

  it('stores each acknowledged disposition once when several clients send at once', async () => {
    const { db } = database();
    const before = await storedCount();
    // Four clients (tokens), each sending overlapping batches: 40 distinct dispositions in all.
    const tokens = await Promise.all([1, 2, 3, 4].map(() => accessToken()));
    const all = distinctDispositions(40, 'race');
    const outcomes = await runConcurrently(24, 8, async (index) => {
      const start = (index * 5) % 30;
      const answer = handled(await sync(tokens[index % 4]!, all.slice(start, start + 10)));
      assert.deepEqual(answer, { good: 10, failedIds: [] });
      return all.slice(start, start + 10);
    });
    const acknowledged = new Set<string>();
    for (const outcome of outcomes) {
      assert.equal(outcome.status, 'fulfilled', String((outcome as any).reason));
      for (const sent of (outcome as PromiseFulfilledResult<any[]>).value) {
        acknowledged.add(sent.identifiedBy.indeedApplyID);
      }
    }
    const stored = await db('partner_dispositions')
      .where('app_id', tenant.app.id)
      .where('identified_by', 'like', '%race-%')
      .select('identified_by');
    const ids = stored.map((row) => JSON.parse(row.identified_by).indeedApplyID as string);
    assert.equal(ids.length, new Set(ids).size, 'no disposition is stored twice');
    assert.deepEqual(new Set(ids), acknowledged, 'every acknowledged disposition is stored');
    assert.equal((await storedCount()) - before, acknowledged.size);
  });
});
