/** The scenarios' names: what the table shows and --only matches. */
export const SCENARIO_NAMES = {
  clientCredentials: 'P1 client_credentials token (Basic, employer)',
  oidcPeer: 'peer: oidc-provider client_credentials token',
  refresh: 'refresh_token grant (token pool)',
  userinfo: 'userinfo (user access token)',
  create: 'createVirtualInterviewEvent (5 interviewers)',
  eventsById: 'P2 virtualInterviewEvents by id (interviewers, interviewee)',
  typename: 'GraphQL { __typename } (bearer + gateway)',
  graphqlPeer: 'peer: graphql-http { __typename } (document cache)',
  healthz: 'GET /healthz',
  expressPeer: 'peer: Express 5 JSON route',
  nodePeer: 'peer: node:http JSON route',
} as const;
