import type DataLoader from 'dataloader';
import type { GatewayContext } from '../../graphql/api.js';
import type { StoredPosting } from '../posting.js';
import type { PostingWriter } from '../posting-writer.js';

/** What Job Sync adds to the gateway's context of each request. */
export type JobSyncContextPart = {
  jobSync: {
    writer: PostingWriter;
    /**
     * The token's employer's postings by sourcedPostingId, read together for one answer; null
     * for an id that names none (and for every id when the token has no employer).
     */
    postings: DataLoader<string, StoredPosting | null>;
    /** The instant the request's lifecycle statuses are read at. */
    now: number;
    /** Base of the console's pages (`managementUrls.viewJob`). */
    publicUrl: string;
  };
};

/** Per-request context of Job Sync's resolvers (a `type`, like the gateway's). */
export type JobSyncContext = GatewayContext & JobSyncContextPart;
