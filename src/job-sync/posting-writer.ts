import { randomUUID } from 'node:crypto';
import type { CreateSourcedJobPostingInput } from '../../generated/graphql.js';
import type { Clock } from '../clock.js';
import type { Transaction } from '../db/transactions.js';
import { NotFoundError, ValidationError, type DomainError } from '../errors.js';
import { InputProblem } from '../validation/input-text.js';
import {
  employerJobIdOf,
  sourcedPostingIdOf,
  type PostingContent,
  type StoredPosting,
} from './posting.js';
import type { PostingNotices } from './posting-notices.js';
import type { ExpiryOutcome, PostingOutcome } from './outcomes.js';
import type { PostingKey, PostingStore } from './posting-store.js';
import { checkPosting } from './rules/posting-rules.js';

export const MAX_POSTINGS_PER_REQUEST = 100;
export const MAX_EXPIRIES_PER_REQUEST = 100;
/** An expired posting reactivated within this keeps its sourcedPostingId (platform §3.6). */
export const REACTIVATION_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

/** The app and the employer of its token: whose postings a call writes. */
export interface PostingOwner {
  appId: string;
  employerId: string;
}

/**
 * Which `{type, id}` pairs of `jobSource.employerIds` the app created with `patchEmployer`:
 * Employer Data answers it, in the posting's transaction.
 */
export interface EmployerDirectory {
  missingPairs(
    appId: string,
    pairs: ReadonlyArray<{ type: string; id: string }>,
    tx: Transaction,
  ): Promise<Array<{ type: string; id: string }>>;
}

export interface PostingWriterSettings {
  /** How long a created or reactivated posting stays PENDING before it is ACTIVE. */
  indexingDelayMs: number;
}

/**
 * Job Sync's writes (platform-apis.md §3): creates, upserts and reactivates postings by their
 * key, and expires them, telling the notices of each change in its transaction.
 */
export class PostingWriter {
  constructor(
    private readonly store: PostingStore,
    private readonly clock: Clock,
    private readonly settings: PostingWriterSettings,
    private readonly employers: EmployerDirectory,
    private readonly notices: PostingNotices,
  ) {}

  /**
   * Writes every posting that passes the rules in one transaction; the others answer their
   * problem. A request with too many, no, or duplicate postings is refused whole.
   */
  async createOrUpdate(
    owner: PostingOwner,
    inputs: readonly CreateSourcedJobPostingInput[],
  ): Promise<PostingOutcome[]> {
    checkBatch(inputs);
    const now = this.clock.now();
    const checked = inputs.map((input, index) => {
      try {
        return { index, content: checkPosting(input, now), problem: null };
      } catch (error) {
        if (error instanceof ValidationError) return { index, content: null, problem: error };
        throw error;
      }
    });
    // Keys in one order in every transaction, so that two batches never lock crosswise.
    const writable = checked
      .filter(
        (entry): entry is typeof entry & { content: PostingContent } => entry.content !== null,
      )
      .sort((a, b) => compareKeys(a.content, b.content));
    await this.notices.prepare();
    const written = await this.store.inTransaction(async (store, tx) => {
      const outcomes = new Map<number, PostingOutcome>();
      for (const { index, content } of writable) {
        outcomes.set(index, await this.writeOne(store, tx, owner, index, content, now));
      }
      return outcomes;
    });
    return checked.map(
      ({ index, problem }) => written.get(index) ?? { index, posting: null, problem },
    );
  }

  /** Expires the owner's postings by id (either form); an unknown id answers NOT_FOUND. */
  async expire(owner: PostingOwner, ids: readonly string[]): Promise<ExpiryOutcome[]> {
    if (ids.length === 0) throw new ValidationError('jobs must hold at least one job', 'jobs');
    if (ids.length > MAX_EXPIRIES_PER_REQUEST) {
      throw new ValidationError(
        `jobs holds ${ids.length} jobs: at most ${MAX_EXPIRIES_PER_REQUEST} are allowed per request`,
        'jobs',
      );
    }
    const now = this.clock.now();
    const wanted = ids.map((id) => sourcedPostingIdOf(id));
    await this.notices.prepare();
    return this.store.inTransaction(async (store, tx) => {
      // Locked one by one in key order, as createOrUpdate locks them: locked in another order,
      // an expiry and a batch of the same postings deadlock on PostgreSQL.
      const owned = await store.owned(
        owner,
        wanted.filter((id): id is string => id !== null),
      );
      owned.sort((a, b) => compareKeys(a.content, b.content));
      const found = new Map<string, StoredPosting>();
      for (const posting of owned) {
        const locked = await store.lockByKey(keyOf(owner, posting.content));
        // A reactivation after the window gave it another id since: the old one names nothing.
        if (locked) found.set(locked.sourcedPostingId, locked);
      }
      const outcomes: ExpiryOutcome[] = [];
      for (const [index, requestedId] of ids.entries()) {
        const posting = found.get(wanted[index] ?? '');
        if (!posting) {
          outcomes.push({
            index,
            requestedId,
            trackingKey: null,
            problem: unknownPosting(requestedId),
          });
          continue;
        }
        if (posting.expiredAt === null) {
          const expired = { ...posting, expiredAt: now, updatedAt: now };
          await store.expire(posting.id, now);
          await this.notices.changed(tx, expired, 'expired', now);
          found.set(posting.sourcedPostingId, expired);
        }
        outcomes.push({ index, requestedId, trackingKey: randomUUID(), problem: null });
      }
      return outcomes;
    });
  }

  private async writeOne(
    store: PostingStore,
    tx: Transaction,
    owner: PostingOwner,
    index: number,
    content: PostingContent,
    now: number,
  ): Promise<PostingOutcome> {
    const key = keyOf(owner, content);
    const problem = await this.refusal(store, tx, key, content);
    if (problem) return { index, posting: null, problem };
    const existing = await store.lockByKey(key);
    if (!existing) {
      const created = this.newPosting(owner, content, now);
      if (await store.insertUnlessKeyTaken(created)) {
        await this.notices.changed(tx, created, 'created', now);
        return { index, posting: created, problem: null };
      }
    }
    // Found, or inserted by a concurrent request since the first look: update it.
    const current = existing ?? (await store.lockByKey(key))!;
    return { index, posting: await this.update(store, tx, current, content, now), problem: null };
  }

  /** The rules that depend on what is stored: one sourceType per sourceName, known employers. */
  private async refusal(
    store: PostingStore,
    tx: Transaction,
    key: PostingKey,
    content: PostingContent,
  ): Promise<DomainError | null> {
    const sourceType = await store.sourceTypeOf(key);
    if (sourceType !== undefined && sourceType !== content.jobSource.sourceType) {
      return new InputProblem(
        `sourceName ${JSON.stringify(key.sourceName)} is already used with sourceType ` +
          `"${sourceType}": one sourceType per sourceName`,
        ['metadata', 'jobSource', 'sourceType'],
      );
    }
    const missing = await this.employers.missingPairs(key.appId, content.jobSource.employerIds, tx);
    if (missing.length) {
      const position = content.jobSource.employerIds.findIndex(
        (pair) => pair.type === missing[0]!.type && pair.id === missing[0]!.id,
      );
      return new InputProblem(
        `No employer with type ${JSON.stringify(missing[0]!.type)} and id ` +
          `${JSON.stringify(missing[0]!.id)}: create it with patchEmployer first`,
        ['metadata', 'jobSource', 'employerIds', position],
      );
    }
    return null;
  }

  private newPosting(owner: PostingOwner, content: PostingContent, now: number): StoredPosting {
    const sourcedPostingId = randomUUID();
    return {
      id: randomUUID(),
      sourcedPostingId,
      employerJobId: employerJobIdOf(sourcedPostingId),
      ...owner,
      content,
      datePublished: content.datePublished ?? now,
      activeFrom: now + this.settings.indexingDelayMs,
      expiredAt: null,
      createdAt: now,
      updatedAt: now,
    };
  }

  private async update(
    store: PostingStore,
    tx: Transaction,
    current: StoredPosting,
    content: PostingContent,
    now: number,
  ): Promise<StoredPosting> {
    if (current.expiredAt !== null) return this.reactivate(store, tx, current, content, now);
    const datePublished = content.datePublished ?? current.datePublished;
    const unchanged =
      JSON.stringify(current.content) === JSON.stringify(content) &&
      datePublished === current.datePublished;
    if (unchanged) return current;
    const updated = { ...current, content, datePublished, updatedAt: now };
    await store.replace(updated);
    await this.notices.changed(tx, updated, 'updated', now);
    return updated;
  }

  /** Within 30 days of its expiry a posting keeps its id; after that it gets a new one. */
  private async reactivate(
    store: PostingStore,
    tx: Transaction,
    current: StoredPosting,
    content: PostingContent,
    now: number,
  ): Promise<StoredPosting> {
    const keepsId = now - current.expiredAt! <= REACTIVATION_WINDOW_MS;
    const sourcedPostingId = keepsId ? current.sourcedPostingId : randomUUID();
    const reactivated: StoredPosting = {
      ...current,
      sourcedPostingId,
      employerJobId: employerJobIdOf(sourcedPostingId),
      content,
      datePublished: content.datePublished ?? now,
      activeFrom: now + this.settings.indexingDelayMs,
      expiredAt: null,
      createdAt: keepsId ? current.createdAt : now,
      updatedAt: now,
    };
    await store.replace(reactivated);
    const previous = keepsId ? undefined : current.sourcedPostingId;
    await this.notices.changed(tx, reactivated, 'reactivated', now, previous);
    return reactivated;
  }
}

function checkBatch(inputs: readonly CreateSourcedJobPostingInput[]): void {
  if (inputs.length === 0) {
    throw new ValidationError('jobPostings must hold at least one posting', 'jobPostings');
  }
  if (inputs.length > MAX_POSTINGS_PER_REQUEST) {
    throw new ValidationError(
      `jobPostings holds ${inputs.length} postings: at most ${MAX_POSTINGS_PER_REQUEST} are ` +
        'allowed per request',
      'jobPostings',
    );
  }
  const seen = new Map<string, number>();
  for (const [index, input] of inputs.entries()) {
    const key = JSON.stringify([
      input.metadata.jobSource.sourceName.trim(),
      input.metadata.jobPostingId.trim(),
    ]);
    const first = seen.get(key);
    if (first !== undefined) {
      throw new ValidationError(
        `Duplicate job entries: jobPostings[${first}] and jobPostings[${index}] have the same ` +
          'sourceName and jobPostingId',
        'jobPostings',
      );
    }
    seen.set(key, index);
  }
}

function keyOf(owner: PostingOwner, content: PostingContent): PostingKey {
  return { ...owner, sourceName: content.jobSource.sourceName, jobPostingId: content.jobPostingId };
}

function compareKeys(a: PostingContent, b: PostingContent): number {
  const left = `${a.jobSource.sourceName}\u0000${a.jobPostingId}`;
  const right = `${b.jobSource.sourceName}\u0000${b.jobPostingId}`;
  return left < right ? -1 : left > right ? 1 : 0;
}

function unknownPosting(id: string): NotFoundError {
  return new NotFoundError(
    `No job posting with sourcedPostingId ${JSON.stringify(id.slice(0, 100))} for this app and employer`,
    'sourcedPostingId',
  );
}
