import { GraphQLError } from 'graphql';
import type { GatewayContext } from '../../graphql/api.js';
import type { PostingOwner } from '../posting-writer.js';

/** The name the gateway registers Job Sync under (schema/job-sync.graphql). */
export const JOB_SYNC_API = 'job-sync';

/**
 * Whose postings the caller writes: the app and the employer its token was issued for. A token
 * without an employer is refused (docs/jobs-apis.md: postings always belong to an employer).
 */
export function postingOwner({ principal }: GatewayContext): PostingOwner {
  if (!principal.employerId) {
    throw new GraphQLError(
      'Client is not authorized: Job Sync needs an access token issued for one employer. ' +
        'Request one from the token endpoint with the client credentials grant, ' +
        'scope=employer_access and the employer parameter.',
      { extensions: { code: 'FORBIDDEN', api: JOB_SYNC_API } },
    );
  }
  return { appId: principal.appId, employerId: principal.employerId };
}
