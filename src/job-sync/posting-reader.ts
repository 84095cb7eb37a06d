import { ValidationError } from '../errors.js';
import type { StoredPosting } from './posting.js';
import type { PostingStore } from './posting-store.js';

export const POSTINGS_PAGE_MAX = 100;

/** A page of an app's postings and where the next starts. */
export interface PostingPage {
  postings: StoredPosting[];
  /** Opaque: pass as `after` for the next page; null on the last. */
  next: string | null;
  total: number;
}

/** Reads of postings: by id for the API, page by page for the console. */
export class PostingReader {
  constructor(private readonly store: PostingStore) {}

  /** The employer's postings by sourcedPostingId (postings of any app of that employer). */
  async ofEmployer(
    employerId: string,
    sourcedPostingIds: readonly string[],
  ): Promise<Map<string, StoredPosting>> {
    const found = await this.store.ofEmployer(employerId, sourcedPostingIds);
    return new Map(found.map((posting) => [posting.sourcedPostingId, posting]));
  }

  /** The app's postings, the latest change first, `size` (1 to 100) at a time. */
  async pageOfApp(appId: string, size: number, after: string | null): Promise<PostingPage> {
    if (!Number.isInteger(size) || size < 1 || size > POSTINGS_PAGE_MAX) {
      throw new ValidationError(`page size must be 1 to ${POSTINGS_PAGE_MAX}`, 'first');
    }
    const rows = await this.store.pageOfApp(appId, size + 1, after ? positionOf(after) : undefined);
    const postings = rows.slice(0, size);
    const last = postings.at(-1);
    return {
      postings,
      next: rows.length > size && last ? cursorOf(last) : null,
      total: await this.store.countOfApp(appId),
    };
  }
}

function cursorOf(posting: StoredPosting): string {
  return Buffer.from(`${posting.updatedAt}.${posting.id}`).toString('base64url');
}

function positionOf(cursor: string): { updatedAt: number; id: string } {
  const match = /^(\d{1,16})\.([0-9a-f-]{36})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw new ValidationError('after is not a cursor of this list', 'after');
  return { updatedAt: Number(match[1]), id: match[2]! };
}
