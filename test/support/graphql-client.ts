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
