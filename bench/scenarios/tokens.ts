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
import type { Load, ProbeResponse, Scenario, ScenarioFixtures } from './types.js';

/**
 * The token endpoint (P1, P6), introspection (P7) and userinfo, and node-oidc-provider's
 * same endpoints as their peers.
 */
export const tokenScenarios: Scenario[] = [
  scenario({
    name: SCENARIO_NAMES.clientCredentials,
    subject: SERVICE,
    comparison: { kind: 'peer', scenario: SCENARIO_NAMES.oidcPeer, min: 1.2 },
    load: async ({ fixtures }) =>
      formPost(
        '/oauth/v2/tokens',
        appBasic(fixtures),
        `grant_type=client_credentials&scope=employer_access&employer=${fixtures.accounts.employers.measured}`,
      ),
    problem: (response) => expectStatus(response, 'access_token'),
  }),
  scenario({
    name: SCENARIO_NAMES.oidcPeer,
    subject: peer('oidc-provider'),
    load: async ({ fixtures }) =>
      formPost('/token', peerBasic(fixtures), clientCredentialsForm(fixtures.peerClient.scope)),
    problem: (response) => expectStatus(response, 'access_token'),
  }),
  scenario({
    name: SCENARIO_NAMES.refresh,
    subject: SERVICE,
    comparison: { kind: 'peer', scenario: SCENARIO_NAMES.oidcRefreshPeer, min: 1.0 },
    load: async ({ fixtures, requests }) =>
      refreshLoad(
        '/oauth/v2/tokens',
        appBasic(fixtures),
        await fixtures.mintRefreshTokens(requests),
      ),
    problem: (response) => expectStatus(response, 'refresh_token'),
  }),
  scenario({
    name: SCENARIO_NAMES.oidcRefreshPeer,
    subject: peer('oidc-provider'),
    load: async ({ fixtures, requests }) =>
      refreshLoad('/token', peerBasic(fixtures), await fixtures.oidcPeer.refreshTokens(requests)),
    problem: (response) => expectStatus(response, 'refresh_token'),
  }),
  scenario({
    name: SCENARIO_NAMES.introspection,
    subject: SERVICE,
    comparison: { kind: 'peer', scenario: SCENARIO_NAMES.oidcIntrospectionPeer, min: 1.0 },
    load: async ({ fixtures, tokens }) =>
      introspectionLoad('/oauth/v2/introspect', appBasic(fixtures), serviceTokens(tokens).employer),
    problem: activeProblem,
  }),
  scenario({
    name: SCENARIO_NAMES.oidcIntrospectionPeer,
    subject: peer('oidc-provider'),
    load: async ({ fixtures }) =>
      introspectionLoad(
        '/token/introspection',
        peerBasic(fixtures),
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

/** client_secret_basic of the bench app (the service's client). */
function appBasic(fixtures: ScenarioFixtures): string {
  return basic(fixtures.accounts.app.clientId, fixtures.accounts.app.clientSecret);
}

/** client_secret_basic of the oidc-provider peer's client. */
function peerBasic(fixtures: ScenarioFixtures): string {
  return basic(fixtures.peerClient.id, fixtures.peerClient.secret);
}

/** A form POST with client_secret_basic. */
function formPost(path: string, authorization: string, body: string): Load {
  return { path, method: 'POST', headers: formHeaders(authorization), body };
}

function formHeaders(authorization: string): Record<string, string> {
  return { authorization, 'content-type': FORM };
}

/** Each request spends one refresh token of the pool (rotation makes each single-use). */
function refreshLoad(path: string, authorization: string, tokens: readonly string[]): Load {
  return {
    path,
    method: 'POST',
    headers: formHeaders(authorization),
    bodies: tokens.map(
      (token) => `grant_type=refresh_token&refresh_token=${encodeURIComponent(token)}`,
    ),
  };
}

/** RFC 7662: the same active token in every request; an inactive answer is an error. */
function introspectionLoad(path: string, authorization: string, token: string): Load {
  return {
    ...formPost(path, authorization, `token=${encodeURIComponent(token)}`),
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
