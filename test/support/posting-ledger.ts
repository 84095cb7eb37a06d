import type { Database } from '../../src/db/database.js';
import { employerJobIdOf } from '../../src/job-sync/posting.js';
import { runConcurrently } from './concurrency.js';
import type { AnsweredPosting, Answer, JobsApisClient } from './jobs-apis-client.js';
import { cameAfter, type TimedWrite } from './timed-writes.js';

interface KeyWrite extends TimedWrite {
  kind: 'create' | 'expire';
  /** The title a create wrote (unique per key: each batch writes its own). */
  title?: string;
}

interface Batch extends TimedWrite {
  title: string;
  /** Keys only this batch writes: after it, all of them exist or (unacknowledged) none. */
  ownKeys: string[];
}

/** What a ledger check found: one line per broken promise, and how much it looked at. */
export interface LedgerCheck {
  problems: string[];
  counts: Record<string, number>;
}

/**
 * Every Job Sync write of a load on one app and employer, with when it was sent and answered,
 * so that a check after a race or a crash can tell what each posting may hold: the write of
 * the last acknowledged change, or of one that raced it or came later, never an older one.
 */
export class PostingLedger {
  readonly faults: string[] = [];
  private readonly writes = new Map<string, KeyWrite[]>();
  /** sourcedPostingIds answered for each key (one expected: nothing here outlives 30 days). */
  private readonly answeredIds = new Map<string, Set<string>>();
  private readonly batches: Batch[] = [];

  /** The sourcedPostingId of a key once a creation of it was acknowledged. */
  idOf(key: string): string | undefined {
    return this.answeredIds.get(key)?.values().next().value;
  }

  created(
    keys: string[],
    ownKeys: string[],
    title: string,
    { answer, write }: { answer: Answer; write: TimedWrite },
  ): void {
    for (const key of keys) this.add(key, { ...write, kind: 'create', title });
    this.batches.push({ ...write, title, ownKeys });
    if (answer.kind === 'fault') this.faults.push(answer.detail);
    if (answer.kind !== 'data') return;
    (answer.data as AnsweredPosting[]).forEach((posting, index) => {
      const ids = this.answeredIds.get(keys[index]!) ?? new Set<string>();
      ids.add(posting.sourcedPostingId);
      this.answeredIds.set(keys[index]!, ids);
    });
  }

  expired(keys: string[], { answer, write }: { answer: Answer; write: TimedWrite }): void {
    for (const key of keys) this.add(key, { ...write, kind: 'expire' });
    if (answer.kind === 'fault') this.faults.push(answer.detail);
  }

  /**
   * Checks the stored postings of `owner` against the ledger: one row per key, each holding a
   * state the writes allow, every batch whole or absent, every acknowledged posting readable
   * through `node(id)` as an EmployerJob, and its webhook messages one valid history.
   */
  async check(
    db: Database,
    owner: { appId: string; employerId: string },
    reader: JobsApisClient,
  ): Promise<LedgerCheck> {
    const problems: string[] = [];
    const rows = await db('job_postings')
      .where({ app_id: owner.appId, employer_id: owner.employerId })
      .select('job_posting_id', 'sourced_posting_id', 'title', 'expired_at');
    const byKey = new Map<string, (typeof rows)[number]>();
    for (const row of rows) {
      if (byKey.has(row.job_posting_id)) problems.push(`key ${row.job_posting_id} has two rows`);
      byKey.set(row.job_posting_id, row);
      if (!this.writes.has(row.job_posting_id)) {
        problems.push(`posting ${row.job_posting_id} was never written`);
      }
    }
    for (const [key, writes] of this.writes) {
      problems.push(...stateProblems(key, writes, byKey.get(key)));
      const ids = this.answeredIds.get(key);
      if (ids && (ids.size !== 1 || !ids.has(byKey.get(key)?.sourced_posting_id ?? ''))) {
        problems.push(`key ${key} was answered as ${[...ids]}, stored as another`);
      }
    }
    for (const batch of this.batches) {
      const present = batch.ownKeys.filter((key) => byKey.get(key)?.title === batch.title);
      const whole = present.length === batch.ownKeys.length;
      if (batch.acknowledged ? !whole : present.length > 0 && !whole) {
        problems.push(
          `batch ${batch.title} (${batch.acknowledged ? 'acknowledged' : 'unanswered'}) ` +
            `left ${present.length} of its ${batch.ownKeys.length} own postings`,
        );
      }
    }
    const acknowledged = [...byKey.entries()].filter(([key]) => this.answeredIds.has(key));
    const reads = await runConcurrently(acknowledged.length, 8, async (i) => {
      const [key, row] = acknowledged[i]!;
      const job = await reader.employerJob(employerJobIdOf(row.sourced_posting_id));
      const status = job?.seats?.[0]?.jobPost?.status?.globalStatus?.lifecycleStatus;
      // Live postings are PENDING, then ACTIVE once JOB_SYNC_INDEXING_DELAY_MS has passed.
      const expected = row.expired_at === null ? ['PENDING', 'ACTIVE'] : ['INACTIVE'];
      if (job?.jobData?.title !== row.title || !expected.includes(status)) {
        problems.push(`node(${key}) reads ${JSON.stringify(job)}; stored ${row.title} ${expected}`);
      }
    });
    for (const read of reads) if (read.status === 'rejected') problems.push(String(read.reason));
    problems.push(...(await historyProblems(db, owner.appId, rows)));
    return {
      problems,
      counts: {
        keys: this.writes.size,
        rows: rows.length,
        acknowledgedBatches: this.batches.filter((batch) => batch.acknowledged).length,
        unansweredBatches: this.batches.filter((batch) => batch.end === Infinity).length,
        readThroughNode: acknowledged.length,
      },
    };
  }

  private add(key: string, write: KeyWrite): void {
    const writes = this.writes.get(key) ?? [];
    writes.push(write);
    this.writes.set(key, writes);
  }
}

/**
 * What a key's row may be. Titles are unique per write, so the row names the create C whose
 * content it holds; then no acknowledged write may have been sent after C was acknowledged
 * unless it is an expiry that the row shows, and an expired row needs an expiry that ran after C
 * with no acknowledged create sent after it.
 */
function stateProblems(
  key: string,
  writes: KeyWrite[],
  row: { title: string; expired_at: number | null } | undefined,
): string[] {
  const creates = writes.filter((write) => write.kind === 'create');
  const expiries = writes.filter((write) => write.kind === 'expire');
  if (!row) {
    return creates.some((write) => write.acknowledged) ? [`acknowledged key ${key} is gone`] : [];
  }
  const source = creates.find((write) => write.title === row.title);
  if (!source) return [`key ${key} holds "${row.title}", which no request wrote`];
  const problems: string[] = [];
  const overwritten = creates.find((write) => write.acknowledged && cameAfter(write, source));
  if (overwritten) {
    problems.push(
      `key ${key} holds "${row.title}", older than acknowledged "${overwritten.title}"`,
    );
  }
  if (row.expired_at === null) {
    if (expiries.some((write) => write.acknowledged && cameAfter(write, source))) {
      problems.push(`key ${key} is live, but an expiry was acknowledged after "${row.title}"`);
    }
  } else {
    const lastExpiry = expiries.find(
      (expiry) =>
        !cameAfter(source, expiry) &&
        !creates.some((write) => write.acknowledged && cameAfter(write, expiry)),
    );
    if (!lastExpiry) problems.push(`key ${key} is expired, but no expiry could have come last`);
  }
  return problems;
}

/** Each posting change's webhook message, in its sequence: the life a posting can have. */
const NEXT: Record<string, string[]> = {
  none: ['job.posting.created.v1'],
  live: ['job.posting.updated.v1', 'job.posting.expired.v1'],
  expired: ['job.posting.reactivated.v1'],
};

/**
 * The webhook messages of every posting (written in each change's transaction) form one valid
 * history, numbered 1, 2, 3… without a gap, that ends in the posting's state.
 */
async function historyProblems(
  db: Database,
  appId: string,
  rows: Array<{ sourced_posting_id: string; expired_at: number | null }>,
): Promise<string[]> {
  const problems: string[] = [];
  const messages = await db('webhook_deliveries')
    .where({ app_id: appId })
    .where('type', 'like', 'job.posting.%')
    .orderBy(['subject', 'sequence'])
    .select('subject', 'sequence', 'type');
  const bySubject = new Map<string, Array<{ sequence: number; type: string }>>();
  for (const message of messages) {
    const list = bySubject.get(message.subject) ?? [];
    list.push({ sequence: Number(message.sequence), type: message.type });
    bySubject.set(message.subject, list);
  }
  for (const row of rows) {
    const subject = employerJobIdOf(row.sourced_posting_id);
    let state = 'none';
    for (const [index, message] of (bySubject.get(subject) ?? []).entries()) {
      if (message.sequence !== index + 1 || !NEXT[state]!.includes(message.type)) {
        problems.push(
          `posting ${subject}: message ${message.sequence} ${message.type} after ${state}`,
        );
        break;
      }
      state = message.type === 'job.posting.expired.v1' ? 'expired' : 'live';
    }
    if (state !== (row.expired_at === null ? 'live' : 'expired')) {
      problems.push(
        `posting ${subject} is ${row.expired_at === null ? 'live' : 'expired'}, its messages end ${state}`,
      );
    }
    bySubject.delete(subject);
  }
  for (const subject of bySubject.keys())
    problems.push(`messages of a posting that is not stored: ${subject}`);
  return problems;
}
