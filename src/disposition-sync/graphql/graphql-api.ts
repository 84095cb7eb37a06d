import type { ApiAccess, GraphQLApi } from '../../graphql/api.js';
import type { DispositionSyncCapability } from '../compose.js';
import type { DispositionContextPart } from './context.js';
import { dispositionResolvers } from './resolvers.js';

/** The name the gateway registers Disposition Sync under (schema/disposition-sync.graphql). */
export const DISPOSITION_SYNC_API = 'disposition-sync';

/**
 * An app's owner enables it first (console, CLI). Clients of the platform ask for
 * `scope=employer_access` (hacktoolkit/django-htk), with or without an employer.
 */
export const DISPOSITION_SYNC_API_ACCESS: ApiAccess = {
  title: 'Disposition Sync API',
  scopes: ['employer_access'],
  enabledByDefault: false,
};

/** Disposition Sync behind the gateway: schema/disposition-sync.graphql and its resolvers. */
export function dispositionSyncApi(
  capability: DispositionSyncCapability,
): GraphQLApi<DispositionContextPart, typeof dispositionResolvers> {
  return {
    name: DISPOSITION_SYNC_API,
    access: DISPOSITION_SYNC_API_ACCESS,
    resolvers: dispositionResolvers,
    createContext: () => ({ dispositions: capability.dispositions }),
  };
}
