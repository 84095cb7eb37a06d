import type { NodeResolvers, QueryResolvers } from '../../../../generated/graphql.js';
import { ValidationError } from '../../../errors.js';
import { sourcedPostingIdOf } from '../../posting.js';
import { postingOwner } from '../caller.js';
import type { JobSyncContext } from '../context.js';
import { MAX_NODE_IDS } from '../list-bounds.js';
import type { EmployerJobParent } from '../parents.js';

/** The posting `id` names among the token's employer's, as an EmployerJob; else null. */
async function nodeOf(id: string, context: JobSyncContext): Promise<EmployerJobParent | null> {
  const sourcedPostingId = sourcedPostingIdOf(id);
  if (!sourcedPostingId) return null;
  const posting = await context.jobSync.postings.load(sourcedPostingId);
  return posting ? { id: posting.employerJobId, posting } : null;
}

export const Query: Pick<QueryResolvers<JobSyncContext>, 'node' | 'nodes'> = {
  node: (_root, { id }, context) => {
    postingOwner(context);
    return nodeOf(id, context);
  },
  nodes: (_root, { ids }, context) => {
    postingOwner(context);
    if (ids.length === 0 || ids.length > MAX_NODE_IDS) {
      throw new ValidationError(`ids must hold 1 to ${MAX_NODE_IDS} ids`, 'ids');
    }
    return Promise.all(ids.map((id) => nodeOf(id, context)));
  },
};

export const Node: NodeResolvers = {
  __resolveType: () => 'EmployerJob',
};
