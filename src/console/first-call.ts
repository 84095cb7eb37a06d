import { createHash, randomBytes } from 'node:crypto';
import { EXAMPLES } from '../../client/explorer/examples.js';
import type { EmployerMembership } from '../accounts/account-store.js';
import { allowsGrant } from '../accounts/grant-types.js';
import type { AppRow } from '../db/rows.js';
import type { PartnerEndpoints } from '../oauth/discovery/partner-endpoints.js';

/** Where a ready request needs a value the page cannot print: the secret, a token, a code. */
const SECRET = '$CLIENT_SECRET';
const ACCESS_TOKEN = '$ACCESS_TOKEN';
const CODE = '$CODE';
/** Stands in for an employer id when the owner belongs to no employer yet. */
export const EMPLOYER_PLACEHOLDER = '$EMPLOYER_ID';

/** The Interview API operations the Overview's ready requests call (the explorer's examples). */
const CREATE = 'createVirtualInterviewEvent';
const FIND = 'findVirtualInterviewEvents';

export interface CodeFlowRequests {
  redirectUri: string;
  state: string;
  verifier: string;
  challenge: string;
  authorizeUrl: string;
  exchange: string;
}

/** The "first call" section of an app's Overview: everything as text, ready to copy. */
export interface FirstCall {
  endpoints: PartnerEndpoints;
  employers: Array<{ name: string; id: string; role: string }>;
  /** The employer the requests act for: the first one listed, or a placeholder. */
  employerId: string;
  clientCredentials: { token: string; appinfo: string } | null;
  codeFlow: CodeFlowRequests[];
  graphql: { create: string; find: string };
}

/**
 * Ready-to-run curl commands for one app: its real client id, never its secret. Each call makes a
 * fresh PKCE verifier and state for every redirect URL, so no two page views share one.
 */
export function firstCall(input: {
  app: AppRow;
  redirectUris: readonly string[];
  employers: readonly EmployerMembership[];
  endpoints: PartnerEndpoints;
}): FirstCall {
  const { app, endpoints } = input;
  const employers = input.employers.map(({ employer, role }) => ({
    name: employer.name,
    id: employer.id,
    role,
  }));
  const employerId = employers[0]?.id ?? EMPLOYER_PLACEHOLDER;
  const confidential = app.client_type === 'confidential';
  const useClientCredentials = confidential && allowsGrant(app, 'client_credentials');
  const useCodeFlow = allowsGrant(app, 'authorization_code');
  return {
    endpoints,
    employers,
    employerId,
    clientCredentials: useClientCredentials
      ? {
          token: curl('POST', endpoints.token, [
            ['-u', `"${app.client_id}:${SECRET}"`],
            ['-d', 'grant_type=client_credentials'],
            ['-d', 'scope=employer_access'],
            ['-d', employerWord(employerId)],
          ]),
          appinfo: curl('GET', endpoints.appinfo, [bearer()]),
        }
      : null,
    codeFlow: useCodeFlow
      ? input.redirectUris.map((uri) => codeFlowRequests(app, uri, endpoints))
      : [],
    graphql: {
      create: graphqlRequest(endpoints.graphql, CREATE),
      find: graphqlRequest(endpoints.graphql, FIND),
    },
  };
}

function codeFlowRequests(
  app: AppRow,
  redirectUri: string,
  endpoints: PartnerEndpoints,
): CodeFlowRequests {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(16).toString('base64url');
  const scopes = ['openid', 'email', 'employer_access'];
  if (allowsGrant(app, 'refresh_token')) scopes.push('offline_access');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: app.client_id,
    redirect_uri: redirectUri,
    scope: scopes.join(' '),
    state,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    prompt: 'select_employer',
  });
  const client: Array<[string, string]> =
    app.client_type === 'confidential'
      ? [['-u', `"${app.client_id}:${SECRET}"`]]
      : [['-d', `client_id=${app.client_id}`]];
  return {
    redirectUri,
    state,
    verifier,
    challenge,
    authorizeUrl: `${endpoints.authorize}?${query}`,
    exchange: curl('POST', endpoints.token, [
      ...client,
      ['-d', 'grant_type=authorization_code'],
      ['--data-urlencode', `"code=${CODE}"`],
      ['--data-urlencode', shellWord(`redirect_uri=${redirectUri}`)],
      ['-d', `code_verifier=${verifier}`],
    ]),
  };
}

function graphqlRequest(url: string, operation: string): string {
  const example = EXAMPLES.find(({ query }) => query.includes(`${operation}(`));
  if (!example) throw new Error(`the explorer has no example of ${operation}`);
  // The query on one line (GraphQL ignores the spacing), the variables laid out to read.
  const body = JSON.stringify(
    {
      query: example.query.replace(/\s+/g, ' ').trim(),
      variables: JSON.parse(example.variables) as unknown,
    },
    null,
    2,
  );
  return curl('POST', url, [
    bearer(),
    ['-H', shellWord('Content-Type: application/json')],
    ['--data-raw', shellWord(body)],
  ]);
}

/** The placeholder stays in double quotes, so the shell fills it in from the variable. */
function employerWord(employerId: string): string {
  return employerId === EMPLOYER_PLACEHOLDER
    ? `"employer=${EMPLOYER_PLACEHOLDER}"`
    : shellWord(`employer=${employerId}`);
}

function bearer(): [string, string] {
  return ['-H', `"Authorization: Bearer ${ACCESS_TOKEN}"`];
}

/** One option a line, continued with backslashes, as people paste curl into a shell. */
function curl(method: 'GET' | 'POST', url: string, options: Array<[string, string]>): string {
  const lines = [`curl -sS${method === 'POST' ? ' -X POST' : ''} ${shellWord(url)}`];
  for (const [flag, value] of options) lines.push(`  ${flag} ${value}`);
  return lines.join(' \\\n');
}

/** A literal shell word: single-quoted unless it is plainly safe, so nothing in it expands. */
function shellWord(value: string): string {
  if (/^[A-Za-z0-9_./:=@%+,-]+$/.test(value)) return value;
  return `'${value.replaceAll("'", `'\\''`)}'`;
}
