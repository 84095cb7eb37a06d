/** The scenarios' names: what the table shows and --only matches. */
export const SCENARIO_NAMES = {
  clientCredentials: 'P1 client_credentials token (Basic, employer)',
  oidcPeer: 'peer: oidc-provider client_credentials token',
  refresh: 'P6 refresh_token grant (token pool, rotation)',
  oidcRefreshPeer: 'peer: oidc-provider refresh_token grant (token pool, rotation)',
  introspection: 'P7 introspection (Basic, active access token)',
  oidcIntrospectionPeer: 'peer: oidc-provider introspection (Basic, active access token)',
  userinfo: 'userinfo (user access token)',
  create: 'P8 createVirtualInterviewEvent (5 interviewers)',
  sameWritesPeer: 'peer: node:http same writes of createVirtualInterviewEvent',
  eventsById: 'P2 virtualInterviewEvents by id (interviewers, interviewee)',
  typename: 'GraphQL { __typename } (bearer + gateway)',
  graphqlPeer: 'peer: graphql-http { __typename } (document cache)',
  healthz: 'GET /healthz',
  expressPeer: 'peer: Express 5 JSON route',
  nodePeer: 'peer: node:http JSON route',
} as const;
