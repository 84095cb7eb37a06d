import { assertResponseMatches } from './openapi-contract.js';

export interface GraphQLErrorBody {
  message: string;
  path?: Array<string | number>;
  extensions: { code: string };
}

/** A GraphQL response body as tests read it: `data` is walked field by field. */
export interface GraphQLBody {
  data?: any;
  errors?: GraphQLErrorBody[];
  extensions?: Record<string, unknown>;
}

export interface GraphQLRequest {
  query: string;
  variables?: object;
  operationName?: string;
}

/**
 * POSTs a GraphQL request with a bearer token and checks the HTTP response against
 * openapi.yaml before the test looks at it.
 */
export async function postGraphQL(
  baseUrl: string,
  token: string,
  request: GraphQLRequest,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: GraphQLBody }> {
  const response = await fetch(`${baseUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(request),
  });
  const body = (await response.json()) as GraphQLBody;
  assertResponseMatches('POST', '/graphql', {
    status: response.status,
    headers: response.headers,
    body,
  });
  return { status: response.status, headers: response.headers, body };
}

/**
 * The body without its `extensions.cost` (every answer carries one): for tests that compare whole
 * bodies and are about something else. The cost has tests of its own.
 */
export function withoutCost<Body extends { extensions?: Record<string, unknown> }>(
  body: Body,
): Body {
  if (!body.extensions || !('cost' in body.extensions)) return body;
  const { cost: _cost, ...extensions } = body.extensions;
  const { extensions: _all, ...rest } = body;
  return (Object.keys(extensions).length ? { ...rest, extensions } : rest) as Body;
}
