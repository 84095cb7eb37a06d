import { GraphQLError } from 'graphql';
import type { GatewayContext, Principal } from '../../graphql/api.js';
import type { WebhookActor } from '../endpoint-service.js';

/** The name the gateway registers this API under (schema/webhooks.graphql). */
export const WEBHOOKS_API = 'webhooks';

/**
 * The app whose endpoints the caller manages: only an app's own client-credentials token (no
 * employer, no user) may, since endpoints belong to the app rather than to an employer or a
 * user. Any other caller gets FORBIDDEN on the field, and the rest of the document still runs.
 */
export function callingApp({ principal }: GatewayContext): string {
  const refusal = refusalOf(principal);
  if (refusal) {
    throw new GraphQLError(
      `The webhook-management API needs the app's own access token: request one from the ` +
        `token endpoint with the client credentials grant and without the employer parameter ` +
        `(${refusal}).`,
      { extensions: { code: 'FORBIDDEN', api: WEBHOOKS_API } },
    );
  }
  return principal.appId;
}

function refusalOf(principal: Principal): string | null {
  if (principal.kind === 'user') return 'this token was issued to a user';
  if (principal.employerId !== null) return 'this token is scoped to an employer';
  return null;
}

/** Who the audit trail names for a change made through this API: the app, on this request. */
export function actorOf(context: GatewayContext): WebhookActor {
  return { userId: null, requestId: context.requestId };
}
