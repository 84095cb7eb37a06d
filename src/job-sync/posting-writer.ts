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
import type { PostingChangeNotice, PostingNotices } from './posting-notices.js';
import type { ExpiryOutcome, PostingOutcome } from './outcomes.js';
import { keyString, type PostingKey, type PostingStore } from './posting-store.js';
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
    const writable = checked.filter(
      (entry): entry is typeof entry & { content: PostingContent } => entry.content !== null,
    );
    await this.notices.prepare();
    const written = writable.length
      ? await this.store.inTransaction((store, tx) =>
          this.writeBatch(store, tx, owner, writable, now),
        )
      : new Map<number, PostingOutcome>();
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
      // Held by key, as a batch holds them: an expiry and a batch of the same postings take turns.
      const owned = await store.owned(
        owner,
        wanted.filter((id): id is string => id !== null),
      );
      const locked = await store.lockByKeys(owned.map((posting) => keyOf(owner, posting.content)));
      const found = new Map<string, StoredPosting>();
      // A reactivation after the window gave a posting another id since: the old one names nothing.
      for (const posting of locked.values()) found.set(posting.sourcedPostingId, posting);
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

  /**
   * The batch in a few statements: its keys held first (present and absent), then the
   * sourceTypes and the stored postings of all of them read at once, new postings inserted in
   * one statement, the notices told together.
   */
  private async writeBatch(
    store: PostingStore,
    tx: Transaction,
    owner: PostingOwner,
    writable: ReadonlyArray<{ index: number; content: PostingContent }>,
    now: number,
  ): Promise<Map<number, PostingOutcome>> {
    const stored = await store.lockByKeys(writable.map(({ content }) => keyOf(owner, content)));
    const sourceTypes = await store.sourceTypesOf(
      owner,
      writable.map(({ content }) => content.jobSource.sourceName),
    );
    const outcomes = new Map<number, PostingOutcome>();
    const created: StoredPosting[] = [];
    const changes: PostingChangeNotice[] = [];
    for (const { index, content } of writable) {
      const key = keyOf(owner, content);
      const problem = await this.refusal(sourceTypes, tx, key, content);
      if (problem) {
        outcomes.set(index, { index, posting: null, problem });
        continue;
      }
      sourceTypes.set(content.jobSource.sourceName, content.jobSource.sourceType);
      const current = stored.get(keyString(key));
      if (!current) {
        const posting = this.newPosting(owner, content, now);
        created.push(posting);
        changes.push({ posting, change: 'created' });
        outcomes.set(index, { index, posting, problem: null });
        continue;
      }
      const next = this.nextState(current, content, now);
      if (next) {
        await store.replace(next.posting);
        changes.push(next);
      }
      outcomes.set(index, { index, posting: next?.posting ?? current, problem: null });
    }
    await store.insert(created);
    await this.notices.changedMany(tx, changes, now);
    return outcomes;
  }

  /** The rules that depend on what is stored: one sourceType per sourceName, known employers. */
  private async refusal(
    sourceTypes: ReadonlyMap<string, string>,
    tx: Transaction,
    key: PostingKey,
    content: PostingContent,
  ): Promise<DomainError | null> {
    const sourceType = sourceTypes.get(key.sourceName);
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

  /**
   * What `content` makes of a stored posting: an update, a reactivation (within 30 days of its
   * expiry a posting keeps its id; after that it gets a new one), or nothing when it is the same.
   */
  private nextState(
    current: StoredPosting,
    content: PostingContent,
    now: number,
  ): PostingChangeNotice | null {
    if (current.expiredAt !== null) {
      const keepsId = now - current.expiredAt <= REACTIVATION_WINDOW_MS;
      const sourcedPostingId = keepsId ? current.sourcedPostingId : randomUUID();
      const posting: StoredPosting = {
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
      const previousSourcedPostingId = keepsId ? undefined : current.sourcedPostingId;
      return { posting, change: 'reactivated', previousSourcedPostingId };
    }
    const datePublished = content.datePublished ?? current.datePublished;
    const unchanged =
      JSON.stringify(current.content) === JSON.stringify(content) &&
      datePublished === current.datePublished;
    if (unchanged) return null;
    return { posting: { ...current, content, datePublished, updatedAt: now }, change: 'updated' };
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

/** Thrown to roll a batch back when a concurrent request took one of its new keys. */
function keyOf(owner: PostingOwner, content: PostingContent): PostingKey {
  return { ...owner, sourceName: content.jobSource.sourceName, jobPostingId: content.jobPostingId };
}

function unknownPosting(id: string): NotFoundError {
  return new NotFoundError(
    `No job posting with sourcedPostingId ${JSON.stringify(id.slice(0, 100))} for this app and employer`,
    'sourcedPostingId',
  );
}
