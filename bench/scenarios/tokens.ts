import {
  basic,
  clientCredentialsForm,
  expectStatus,
  FORM,
  serviceTokens,
  peer,
  scenario,
  SERVICE,
} from './requests.js';
import { SCENARIO_NAMES } from './names.js';
import type { Load, ProbeResponse, Scenario } from './types.js';

/**
 * The token endpoint (P1, P6), introspection (P7) and userinfo, and node-oidc-provider's
 * same endpoints as their peers.
 */
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
      body: clientCredentialsForm(fixtures.peerClient.scope),
    }),
    problem: (response) => expectStatus(response, 'access_token'),
  }),
  scenario({
    name: SCENARIO_NAMES.refresh,
    subject: SERVICE,
    comparison: { kind: 'peer', scenario: SCENARIO_NAMES.oidcRefreshPeer, min: 1.0 },
    load: async ({ fixtures, requests }) =>
      refreshLoad(
        '/oauth/v2/tokens',
        basic(fixtures.accounts.app.clientId, fixtures.accounts.app.clientSecret),
        await fixtures.mintRefreshTokens(requests),
      ),
    problem: (response) => expectStatus(response, 'refresh_token'),
  }),
  scenario({
    name: SCENARIO_NAMES.oidcRefreshPeer,
    subject: peer('oidc-provider'),
    load: async ({ fixtures, requests }) =>
      refreshLoad(
        '/token',
        basic(fixtures.peerClient.id, fixtures.peerClient.secret),
        await fixtures.oidcPeer.refreshTokens(requests),
      ),
    problem: (response) => expectStatus(response, 'refresh_token'),
  }),
  scenario({
    name: SCENARIO_NAMES.introspection,
    subject: SERVICE,
    comparison: { kind: 'peer', scenario: SCENARIO_NAMES.oidcIntrospectionPeer, min: 1.0 },
    load: async ({ fixtures, tokens }) =>
      introspectionLoad(
        '/oauth/v2/introspect',
        basic(fixtures.accounts.app.clientId, fixtures.accounts.app.clientSecret),
        serviceTokens(tokens).employer,
      ),
    problem: activeProblem,
  }),
  scenario({
    name: SCENARIO_NAMES.oidcIntrospectionPeer,
    subject: peer('oidc-provider'),
    load: async ({ fixtures }) =>
      introspectionLoad(
        '/token/introspection',
        basic(fixtures.peerClient.id, fixtures.peerClient.secret),
        await fixtures.oidcPeer.accessToken(),
      ),
    problem: activeProblem,
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

/** Each request spends one refresh token of the pool (rotation makes each single-use). */
function refreshLoad(path: string, authorization: string, tokens: readonly string[]): Load {
  return {
    path,
    method: 'POST',
    headers: { authorization, 'content-type': FORM },
    bodies: tokens.map(
      (token) => `grant_type=refresh_token&refresh_token=${encodeURIComponent(token)}`,
    ),
  };
}

/** RFC 7662: the same active token in every request; an inactive answer is an error. */
function introspectionLoad(path: string, authorization: string, token: string): Load {
  return {
    path,
    method: 'POST',
    headers: { authorization, 'content-type': FORM },
    body: `token=${encodeURIComponent(token)}`,
    bodyMustInclude: ACTIVE,
  };
}

const ACTIVE = '"active":true';

function activeProblem(response: ProbeResponse): string | undefined {
  const failed = expectStatus(response);
  if (failed) return failed;
  return (response.body as { active?: unknown }).active === true
    ? undefined
    : `the token is not active: ${JSON.stringify(response.body).slice(0, 300)}`;
}
