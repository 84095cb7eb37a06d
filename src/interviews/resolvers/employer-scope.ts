import { GraphQLError } from 'graphql';
import type { GatewayContext } from '../../graphql/api.js';

/** Every Interview API operation acts for exactly one employer, the one the token names. */
export function requireEmployer({ principal }: GatewayContext): string {
  if (!principal.employerId) {
    throw new GraphQLError(
      'This operation needs an employer-scoped access token: request a token from the token ' +
        'endpoint with the employer parameter (and the employer_access scope).',
      { extensions: { code: 'FORBIDDEN' } },
    );
  }
  return principal.employerId;
}
