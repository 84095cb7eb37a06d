import assert from 'node:assert/strict';
import { API_CATALOGUE, graphqlApis } from '../../src/apis.js';
import type { ApiAccessService } from '../../src/accounts/api-access-service.js';
import { ChangeEpochStore } from '../../src/db/change-epochs.js';
import type { AppRow } from '../../src/db/rows.js';
import type { DispositionSyncCapability } from '../../src/disposition-sync/compose.js';
import type { JobSearchCapability } from '../../src/job-search/compose.js';
import type { Interviews } from '../../src/interviews/compose.js';
import type { Webhooks } from '../../src/webhooks/compose.js';
import type { JobSync } from '../../src/job-sync/compose.js';
import type { EmployerData } from '../../src/employer-data/compose.js';
import type { Principal } from '../../src/oauth/principal.js';
import { testCliServices } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { gatewayApis } from '../support/gateway-schema.js';
import { postGraphQL, withoutCost, type GraphQLBody } from '../support/graphql-client.js';
import { employerAppPrincipal, insertTenant } from '../support/interview-fixtures.js';
import { startTestService } from '../support/service.js';

/** One field of each API: the webhook-management API's and the Interview API's. */
const BOTH = `query {
  webhookEndpoint(id: "none") { id }
  webhookEndpoints(first: 1) { totalCount }
  findVirtualInterviewEvents(input: {}, first: 1) { events { id } }
  __typename
}`;
const WEBHOOKS_ONLY = `query { webhookEndpoint(id: "none") { id } }`;
const INTERVIEW_ONLY = `query { findVirtualInterviewEvents(input: {}, first: 1) { events { id } } }`;
const CREATE_ENDPOINT = `mutation {
  createWebhookEndpoint(input: { url: "https://example.com/hooks" }) { endpoint { id } }
}`;

type ErrorWithApi = {
  message: string;
  path?: unknown[];
  extensions: { code: string; api?: string };
};

function errorsOf(body: GraphQLBody): ErrorWithApi[] {
  return (body.errors ?? []) as ErrorWithApi[];
}

describe('access per API: registrations', () => {
  it('maps every root field to the API whose SDL module adds it, with its access', () => {
    const { apiOfRootField } = gatewayApis;
    assert.equal(apiOfRootField.get('Query.webhookEndpoint')?.name, 'webhooks');
    assert.equal(apiOfRootField.get('Mutation.createVirtualInterviewEvent')?.name, 'interview');
    assert.deepEqual(apiOfRootField.get('Query.findVirtualInterviewEvents')?.scopes, [
      'employer_access',
    ]);
    assert.equal(apiOfRootField.get('Query.__typename'), undefined);
  });

  it('the catalogue the console and CLI show is the registrations, name for name', () => {
    const apis = graphqlApis({
      interviews: {} as Interviews,
      webhooks: {} as Webhooks,
      dispositionSync: {} as DispositionSyncCapability,
      jobSearch: {} as JobSearchCapability,
      jobSync: {} as JobSync,
      employerData: {} as EmployerData,
      publicUrl: 'http://127.0.0.1',
    });
    const registered = apis.map((api) => ({ name: api.name, ...api.access }));
    assert.deepEqual(API_CATALOGUE, registered);
  });
});

describeEachDialect('access per API through the gateway', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  let access: ApiAccessService;
  let app: AppRow;
  const principals: Record<string, Principal> = {};
  /** Principals as the verifier makes them: with the accounts epoch read when verified. */
  let verifiedNow = true;

  before(async () => {
    const { db } = database();
    const tenant = await insertTenant(db, 'access');
    principals.employer = employerAppPrincipal(tenant);
    principals.own = { ...employerAppPrincipal(tenant), employerId: null, scopes: [] };
    principals.noScope = { ...employerAppPrincipal(tenant), scopes: ['email'] };
    service = await startTestService(database(), {
      authenticate: async (token) => {
        const principal = principals[token];
        if (!principal || !verifiedNow) return principal ?? null;
        return { ...principal, accountsEpoch: await new ChangeEpochStore(db).accounts() };
      },
    });
    // Changes come from another composition, as from the CLI: another process's cache.
    access = testCliServices(db).apiAccess;
    app = (await db('apps').where({ id: tenant.appId }).first()) as AppRow;
  });
  after(async () => {
    await service?.stop();
  });
  afterEach(async () => {
    verifiedNow = true;
    for (const { name } of API_CATALOGUE) await access.setEnabled(app, name, true);
  });

  async function call(token: string, query: string) {
    return withoutCost((await postGraphQL(service.url, token, { query })).body);
  }

  it('lets every app use both APIs by default', async () => {
    const own = await call('own', WEBHOOKS_ONLY);
    assert.deepEqual(own, { data: { webhookEndpoint: null } });
    const employer = await call('employer', INTERVIEW_ONLY);
    assert.deepEqual(employer, { data: { findVirtualInterviewEvents: { events: [] } } });
  });

  it('answers FORBIDDEN with extensions.api for the API the app is not enabled for, data for the other', async () => {
    assert.equal(await access.setEnabled(app, 'webhooks', false), true);
    const employer = await call('employer', BOTH);
    // Every root field of the webhook API is nullable, as the platform's are: each refused field
    // is null with its error, and the Interview API's data stays.
    assert.deepEqual(employer.data, {
      webhookEndpoint: null,
      webhookEndpoints: null,
      findVirtualInterviewEvents: { events: [] },
      __typename: 'Query',
    });
    const [refusal, second, ...others] = errorsOf(employer);
    assert.deepEqual(others, []);
    assert.deepEqual(refusal!.path, ['webhookEndpoint']);
    assert.deepEqual(second!.path, ['webhookEndpoints']);
    assert.deepEqual(second!.extensions, { code: 'FORBIDDEN', api: 'webhooks' });
    assert.equal(refusal!.extensions.code, 'FORBIDDEN');
    assert.equal(refusal!.extensions.api, 'webhooks');
    assert.match(
      refusal!.message,
      /^Client is not authorized: this app is not enabled for the Webhook management API/,
    );
    assert.match(refusal!.message, /app enable-api <client-id> webhooks/);

    await access.setEnabled(app, 'webhooks', true);
    await access.setEnabled(app, 'interview', false);
    // The Interview API's root fields are non-null: GraphQL's null propagation nulls `data`.
    const own = await call('own', BOTH);
    assert.equal(own.data, null);
    assert.deepEqual(
      errorsOf(own).map((error) => [error.path, error.extensions]),
      [[['findVirtualInterviewEvents'], { code: 'FORBIDDEN', api: 'interview' }]],
    );
  });

  it('refuses a mutation of an API the app is not enabled for, and writes nothing', async () => {
    await access.setEnabled(app, 'webhooks', false);
    const body = await call('own', CREATE_ENDPOINT);
    assert.deepEqual(body.data, { createWebhookEndpoint: null });
    assert.deepEqual(errorsOf(body)[0]!.extensions, { code: 'FORBIDDEN', api: 'webhooks' });
    const stored = await database().db('webhook_endpoints').where({ app_id: app.id });
    assert.deepEqual(stored, []);
  });

  it("answers FORBIDDEN naming the scope when the token lacks the API's scopes", async () => {
    const body = await call('noScope', INTERVIEW_ONLY);
    assert.equal(body.data, null);
    const [refusal] = errorsOf(body);
    assert.deepEqual(refusal!.path, ['findVirtualInterviewEvents']);
    assert.deepEqual(refusal!.extensions, { code: 'FORBIDDEN', api: 'interview' });
    assert.match(refusal!.message, /needs an access token with the scope employer_access/);
    // An API without scopes is not refused for them: the webhook API's own rule answers.
    const webhook = errorsOf(await call('noScope', WEBHOOKS_ONLY))[0]!;
    assert.deepEqual(webhook.extensions, { code: 'FORBIDDEN', api: 'webhooks' });
    assert.match(webhook.message, /scoped to an employer/);
  });

  it('counts an API enabled elsewhere on the next request, even for a token verified before', async () => {
    await access.setEnabled(app, 'interview', false);
    assert.equal(errorsOf(await call('employer', INTERVIEW_ONLY))[0]!.extensions.api, 'interview');
    // A token verified before the change: its facts are older, yet enabling counts at once.
    verifiedNow = false;
    await access.setEnabled(app, 'interview', true);
    assert.deepEqual(await call('employer', INTERVIEW_ONLY), {
      data: { findVirtualInterviewEvents: { events: [] } },
    });
  });

  it('runs no statement for the check of an allowed request', async () => {
    await call('own', WEBHOOKS_ONLY);
    const statements: string[] = [];
    const record = (query: { sql: string }) => statements.push(query.sql);
    service.db.on('query', record);
    try {
      verifiedNow = false;
      assert.deepEqual(await call('own', WEBHOOKS_ONLY), { data: { webhookEndpoint: null } });
    } finally {
      service.db.off('query', record);
    }
    assert.deepEqual(
      statements.filter((sql) => /app_api_access|change_epochs/.test(sql)),
      [],
      statements.join('\n'),
    );
  });
});
