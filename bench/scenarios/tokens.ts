import { basic, expectStatus, FORM, serviceTokens, peer, scenario, SERVICE } from './requests.js';
import { SCENARIO_NAMES } from './names.js';
import type { Scenario } from './types.js';

/** The token endpoint (P1 and the refresh grant) and userinfo, and the token endpoint's peer. */
export const tokenScenarios: Scenario[] = [
  scenario({
    name: SCENARIO_NAMES.clientCredentials,
    subject: SERVICE,
    comparison: { kind: 'peer', scenario: SCENARIO_NAMES.oidcPeer, min: 1.2 },
    load: async ({ fixtures }) => ({
      path: '/oauth/v2/tokens',
      method: 'POST',
      headers: {
        authorization: basic(fixtures.accounts.app.clientId, fixtures.accounts.app.clientSecret),
        'content-type': FORM,
      },
      body: `grant_type=client_credentials&scope=employer_access&employer=${fixtures.accounts.employers.measured}`,
    }),
    problem: (response) => expectStatus(response, 'access_token'),
  }),
  scenario({
    name: SCENARIO_NAMES.oidcPeer,
    subject: peer('oidc-provider'),
    load: async ({ fixtures }) => ({
      path: '/token',
      method: 'POST',
      headers: {
        authorization: basic(fixtures.peerClient.id, fixtures.peerClient.secret),
        'content-type': FORM,
      },
      body: `grant_type=client_credentials&scope=${encodeURIComponent(fixtures.peerClient.scope)}`,
    }),
    problem: (response) => expectStatus(response, 'access_token'),
  }),
  scenario({
    name: SCENARIO_NAMES.refresh,
    subject: SERVICE,
    load: async ({ fixtures, requests }) => ({
      path: '/oauth/v2/tokens',
      method: 'POST',
      headers: {
        authorization: basic(fixtures.accounts.app.clientId, fixtures.accounts.app.clientSecret),
        'content-type': FORM,
      },
      bodies: (await fixtures.mintRefreshTokens(requests)).map(
        (token) => `grant_type=refresh_token&refresh_token=${encodeURIComponent(token)}`,
      ),
    }),
    problem: (response) => expectStatus(response, 'refresh_token'),
  }),
  scenario({
    name: SCENARIO_NAMES.userinfo,
    subject: SERVICE,
    load: async ({ tokens }) => ({
      path: '/v2/api/userinfo',
      method: 'GET',
      headers: { authorization: `Bearer ${serviceTokens(tokens).user}` },
    }),
    problem: (response, { fixtures }) =>
      expectStatus(response, 'sub') ??
      ((response.body as { email?: string }).email === fixtures.accounts.owner.email
        ? undefined
        : `userinfo names another email: ${JSON.stringify(response.body)}`),
  }),
];
