import type {
  Load,
  PeerName,
  ProbeResponse,
  Scenario,
  ServiceTokens,
  Stage,
  Subject,
} from './types.js';

export const FORM = 'application/x-www-form-urlencoded';
export const JSON_TYPE = 'application/json';
export const BOTH_STAGES: readonly Stage[] = ['small', 'large'];
const SMALL_STAGE: readonly Stage[] = ['small'];

export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

export function clientCredentialsForm(scope: string): string {
  return `grant_type=client_credentials&scope=${encodeURIComponent(scope)}`;
}

/** A GraphQL request, with a bearer token unless it is for a peer that needs none. */
export function graphqlLoad(token: string | undefined, query: string, variables?: object): Load {
  return {
    ...graphqlPost(token),
    body: JSON.stringify({ query, ...(variables && { variables }) }),
  };
}

/** A GraphQL POST without its body, with a bearer token unless it is for a peer. */
export function graphqlPost(token: string | undefined): Omit<Load, 'body'> {
  return {
    path: '/graphql',
    method: 'POST',
    headers: {
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
      'content-type': JSON_TYPE,
    },
  };
}

export function serviceTokens(tokens: ServiceTokens | undefined): ServiceTokens {
  if (!tokens) throw new Error('a service scenario needs the service tokens');
  return tokens;
}

/** `data` of a GraphQL response, or the problem with it. */
export function graphqlData(response: ProbeResponse): { data?: unknown; problem?: string } {
  const body = response.body as { data?: unknown; errors?: unknown[] } | undefined;
  const shown = () => JSON.stringify(body).slice(0, 500);
  if (response.status !== 200) return { problem: `HTTP ${response.status}: ${shown()}` };
  if (body?.errors?.length) return { problem: `GraphQL errors: ${shown()}` };
  if (!body?.data) return { problem: `no data: ${shown()}` };
  return { data: body.data };
}

/** The value at a path of object keys and array indexes in parsed JSON; undefined if absent. */
export function at(value: unknown, ...path: Array<string | number>): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

export function expectStatus(response: ProbeResponse, field?: string): string | undefined {
  if (response.status !== 200) {
    return `HTTP ${response.status}: ${JSON.stringify(response.body).slice(0, 300)}`;
  }
  if (
    field &&
    typeof (response.body as Record<string, unknown> | undefined)?.[field] !== 'string'
  ) {
    return `no ${field} in ${JSON.stringify(response.body).slice(0, 300)}`;
  }
  return undefined;
}

export const SERVICE: Subject = { kind: 'service' };

export function peer(name: PeerName): Subject {
  return { kind: 'peer', peer: name };
}

type Defaulted = 'stages' | 'serial' | 'graphql';

/** A scenario measured under load at the small stage only, and not GraphQL, unless it says so. */
export function scenario(
  definition: Omit<Scenario, Defaulted> & Partial<Pick<Scenario, Defaulted>>,
): Scenario {
  return { stages: SMALL_STAGE, serial: false, graphql: false, ...definition };
}
