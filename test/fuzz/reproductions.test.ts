/**
 * Inputs that once reached the database and failed there as 500s (PostgreSQL refuses NUL in
 * text, error 22021), and a subscription document that answered INTERNAL_SERVER_ERROR. Each
 * now gets its interface's own client error.
 */
import assert from 'node:assert/strict';
import { describeEachDeployment } from '../support/deployments.js';
import { postGraphQL } from '../support/graphql-client.js';
import { insertEventGraph } from '../support/interview-fixtures.js';
import { REDIRECT_URI, basic, callApi } from '../support/oauth-fixtures.js';
import { ConsoleClient } from '../support/console-client.js';
import { healthyEventInput, startFuzzService, type FuzzService } from './support/fuzz-service.js';

const NUL = '\u0000';
const LONG_CLIENT_ID = 'c'.repeat(300);

describeEachDeployment(
  'bad identifiers and text are refused at the edge',
  (database, deployment) => {
    let service: FuzzService;

    before(async () => {
      service = await startFuzzService(database(), deployment);
    });
    after(async () => {
      await service?.stop();
    });

    const clientCredentials = (
      form: Record<string, string>,
      headers: Record<string, string> = {},
    ) =>
      callApi(service.url, 'POST', '/oauth/v2/tokens', {
        form: { grant_type: 'client_credentials', scope: 'employer_access', ...form },
        headers,
      });
    const asClient = () => basic(service.tenant.app.client_id, service.tenant.app.secret);

    function assertInvalidRequest(response: { status: number; body: any }, parameter: string) {
      assert.equal(response.status, 400, JSON.stringify(response.body));
      assert.equal(response.body.error, 'invalid_request');
      assert.match(response.body.error_description, new RegExp(parameter));
    }

    describe('OAuth endpoints', () => {
      it('refuse a NUL in client_id with invalid_request', async () => {
        const response = await clientCredentials({
          client_id: `${service.tenant.app.client_id}${NUL}`,
          client_secret: service.tenant.app.secret,
        });
        assertInvalidRequest(response, 'client_id');
        assert.match(response.body.error_description, /control characters/);
      });

      it('refuse a NUL in employer with invalid_request', async () => {
        assertInvalidRequest(await clientCredentials({ employer: NUL }, asClient()), 'employer');
        const refreshed = await callApi(service.url, 'POST', '/oauth/v2/tokens', {
          form: { grant_type: 'refresh_token', refresh_token: 'x', employer: `a${NUL}` },
          headers: asClient(),
        });
        assertInvalidRequest(refreshed, 'employer');
      });

      it('refuse a NUL in the decoded Basic client id or secret with invalid_request', async () => {
        const id = service.tenant.app.client_id;
        for (const headers of [
          basic(`${id}${NUL}`, service.tenant.app.secret),
          basic(id, `${service.tenant.app.secret}${NUL}`),
          { authorization: `Basic ${Buffer.from(`${NUL}:secret`).toString('base64')}` },
        ]) {
          for (const path of ['/oauth/v2/tokens', '/oauth/v2/revoke', '/oauth/v2/introspect']) {
            const response = await callApi(service.url, 'POST', path, {
              form: { grant_type: 'client_credentials', token: 'x' },
              headers,
            });
            assertInvalidRequest(response, 'client_(id|secret)');
          }
        }
      });

      it('refuse a 300-character client_id at the token, revocation and introspection endpoints', async () => {
        for (const path of ['/oauth/v2/tokens', '/oauth/v2/revoke', '/oauth/v2/introspect']) {
          const inBody = await callApi(service.url, 'POST', path, {
            form: { grant_type: 'client_credentials', token: 'x', client_id: LONG_CLIENT_ID },
          });
          assertInvalidRequest(inBody, 'client_id');
          const inHeader = await callApi(service.url, 'POST', path, {
            form: { grant_type: 'client_credentials', token: 'x' },
            headers: basic(LONG_CLIENT_ID, 'secret'),
          });
          assertInvalidRequest(inHeader, 'client_id');
        }
      });

      it('show the error page for a NUL in client_id at the authorization endpoint', async () => {
        const query = new URLSearchParams({
          client_id: NUL,
          redirect_uri: REDIRECT_URI,
          response_type: 'code',
          scope: 'email',
        });
        const response = await callApi(service.url, 'GET', `/oauth/v2/authorize?${query}`);
        assert.equal(response.status, 400);
        assert.match(response.headers.get('content-type') ?? '', /text\/html/);
        assert.match(response.body, /client_id/);
      });

      it('redirect with invalid_request for a NUL in state or nonce of a known client', async () => {
        const bads: Array<Record<string, string>> = [{ state: `s${NUL}` }, { nonce: NUL }];
        for (const bad of bads) {
          const query = new URLSearchParams({
            client_id: service.tenant.app.client_id,
            redirect_uri: REDIRECT_URI,
            response_type: 'code',
            scope: 'email',
            ...bad,
          });
          const response = await fetch(`${service.url}/oauth/v2/authorize?${query}`, {
            redirect: 'manual',
          });
          assert.equal(response.status, 302);
          const location = new URL(response.headers.get('location')!);
          assert.equal(location.searchParams.get('error'), 'invalid_request');
          assert.match(location.searchParams.get('error_description')!, /state|nonce/);
        }
      });
    });

    describe('GraphQL', () => {
      const CREATE = `mutation($input: CreateVirtualInterviewEventInput!) {
      createVirtualInterviewEvent(input: $input) { event { id } } }`;
      const graphql = (query: string, variables?: object) =>
        postGraphQL(service.url, service.employerToken, { query, variables });

      async function assertBadUserInput(variables: object, field: string) {
        const { body } = await graphql(CREATE, variables);
        assert.equal(body.errors?.[0]?.extensions.code, 'BAD_USER_INPUT', JSON.stringify(body));
        assert.match(body.errors[0]!.message, new RegExp(field.replaceAll('.', '\\.')));
      }

      it('refuses a NUL in a title, a name or atsName with BAD_USER_INPUT naming the field', async () => {
        const input = healthyEventInput();
        await assertBadUserInput({ input: { ...input, title: `First${NUL}` } }, 'input.title');
        await assertBadUserInput(
          { input: { ...input, interviewee: { name: NUL, email: 'casey@example.com' } } },
          'input.interviewee.name',
        );
        await assertBadUserInput(
          { input: { ...input, requestMetadata: { atsName: `ATS${NUL}` } } },
          'input.requestMetadata.atsName',
        );
        await assertBadUserInput({ input: { ...input, title: 'Tab\tin a title' } }, 'input.title');
      });

      it('treats an event id with a NUL or of 300 characters as unknown', async () => {
        const created = await graphql(CREATE, { input: healthyEventInput() });
        const id = created.body.data.createVirtualInterviewEvent.event.id as string;
        for (const unknown of [`${id}${NUL}`, NUL, 'e'.repeat(300)]) {
          const update = await graphql(
            `
              mutation ($id: ID!) {
                updateVirtualInterviewEvent(input: { setTitle: { id: $id, title: "New" } }) {
                  event {
                    id
                  }
                }
              }
            `,
            { id: unknown },
          );
          assert.equal(
            update.body.errors?.[0]?.extensions.code,
            'NOT_FOUND',
            JSON.stringify(update.body),
          );
          const cancel = await graphql(
            `
              mutation ($id: ID!) {
                cancelVirtualInterviewEvent(input: { id: $id }) {
                  event {
                    id
                  }
                }
              }
            `,
            { id: unknown },
          );
          assert.equal(
            cancel.body.errors?.[0]?.extensions.code,
            'NOT_FOUND',
            JSON.stringify(cancel.body),
          );
        }
        const read = await graphql(
          `
            query ($ids: [ID!]!) {
              virtualInterviewEvents(input: { ids: $ids }) {
                events {
                  id
                }
              }
            }
          `,
          { ids: [`${id}${NUL}`, id, 'e'.repeat(300)] },
        );
        assert.deepEqual(
          { data: read.body.data },
          {
            data: { virtualInterviewEvents: { events: [null, { id }, null] } },
          },
        );
      });

      it('refuses a NUL in a new title of an event that exists', async () => {
        const created = await graphql(CREATE, { input: healthyEventInput() });
        const id = created.body.data.createVirtualInterviewEvent.event.id as string;
        const { body } = await graphql(
          `
            mutation ($id: ID!, $title: String!) {
              updateVirtualInterviewEvent(input: { setTitle: { id: $id, title: $title } }) {
                event {
                  id
                }
              }
            }
          `,
          { id, title: NUL },
        );
        assert.equal(body.errors?.[0]?.extensions.code, 'BAD_USER_INPUT');
        assert.match(body.errors[0]!.message, /input\.setTitle\.title/);
      });

      it('answers a document nested 2,000 brackets deep with GRAPHQL_PARSE_FAILED', async () => {
        const deep = `{ findVirtualInterviewEvents(input: { sort: ${'['.repeat(2000)}${']'.repeat(2000)} }) { totalCount } }`;
        const { status, body } = await graphql(deep);
        assert.equal(status, 200);
        assert.equal(body.errors?.[0]?.extensions.code, 'GRAPHQL_PARSE_FAILED');
        assert.match(body.errors[0]!.message, /more than 200 deep/);
      });

      it('answers a subscription document with GRAPHQL_VALIDATION_FAILED', async () => {
        const { status, body } = await graphql('subscription { events { id } }');
        assert.equal(status, 200);
        assert.equal(body.errors?.[0]?.extensions.code, 'GRAPHQL_VALIDATION_FAILED');
        assert.match(body.errors[0]!.message, /subscription/i);
      });
    });

    describe('pages', () => {
      it('console: a NUL in the sign-in email is a failed sign-in, in a path an unknown app', async () => {
        const browser = new ConsoleClient(service.url);
        const signIn = await browser.submit('/console/sign-in', '/console/sign-in', {
          email: `ada${NUL}@example.com`,
          password: 'whatever password',
        });
        assert.equal(signIn.status, 401, signIn.body);
        await browser.signUp(`nul-${Date.now()}@example.com`, 'correct horse battery');
        for (const path of [
          '/console/apps/%00/credentials',
          `/console/apps/${'a'.repeat(300)}`,
          '/console/employers/%00',
        ]) {
          const page = await browser.get(path);
          assert.equal(page.status, 404, `${path}: ${page.body}`);
        }
      });

      it('console: a NUL in a name, description or redirect URL is refused with the form', async () => {
        const browser = new ConsoleClient(service.url);
        const signUp = await browser.submit('/console/sign-up', '/console/sign-up', {
          email: `nul-name-${Date.now()}@example.com`,
          password: 'correct horse battery',
          name: `Ada${NUL}`,
        });
        assert.equal(signUp.status, 400, signUp.body);
        await browser.signUp(`nul-app-${Date.now()}@example.com`, 'correct horse battery');
        const forms: Array<Record<string, string>> = [
          { name: `App${NUL}`, redirect_uri_1: REDIRECT_URI },
          { name: 'App', description: `About${NUL}`, redirect_uri_1: REDIRECT_URI },
          { name: 'App', redirect_uri_1: `${REDIRECT_URI}${NUL}` },
        ];
        for (const fields of forms) {
          const page = await browser.submit('/console/apps/new', '/console/apps/new', {
            client_type: 'confidential',
            grant_types: ['authorization_code'],
            ...fields,
          });
          assert.equal(page.status, 400, page.body);
        }
        const employer = await browser.submit('/console/employers', '/console/employers', {
          name: `Acme${NUL}`,
        });
        assert.equal(employer.status, 400, employer.body);
      });

      it('lobby: a NUL in a decision note is refused with the page, a NUL token is unknown', async () => {
        const { db } = database();
        const graph = await insertEventGraph(
          db,
          {
            employerId: service.tenant.employer.id,
            appId: service.tenant.app.id,
            userId: service.tenant.user.id,
          },
          Date.now() - 10 * 60_000,
        );
        const path = `/lobby/interviewer/${graph.tokens.interviewer}`;
        const browser = new ConsoleClient(service.url);
        const identified = await browser.submit(path, `${path}/identify`, {
          email: 'lee@example.com',
        });
        assert.equal(identified.status, 303, identified.body);
        const refused = await browser.submit(path, `${path}/decision`, {
          record_id: graph.record.id,
          decision: 'YES',
          note: `Strong${NUL}`,
        });
        assert.equal(refused.status, 400, refused.body);
        const kept = await browser.submit(path, `${path}/decision`, {
          record_id: graph.record.id,
          decision: 'YES',
          note: 'Strong\r\n\tand clear',
        });
        assert.equal(kept.status, 303, kept.body);
        for (const unknown of [
          '/lobby/interviewer/%00',
          '/interviews/%00',
          '/lobby/interviewee/%00',
        ]) {
          assert.equal((await browser.get(unknown)).status, 404);
        }
      });
    });
  },
);
