import { Store } from '../db/store.js';
import { employerJobIdOf, type PostingContent, type StoredPosting } from './posting.js';

/** A row of job_postings (migration 0028) as both engines read it back. */
export interface PostingRow {
  id: string;
  sourced_posting_id: string;
  app_id: string;
  employer_id: string;
  source_name: string;
  job_posting_id: string;
  source_type: string;
  title: string;
  company_name: string;
  posting: string;
  date_published: number;
  active_from: number;
  expired_at: number | null;
  created_at: number;
  updated_at: number;
}

/** Who a posting belongs to and how the partner keys it: the upsert key. */
export interface PostingKey {
  appId: string;
  employerId: string;
  sourceName: string;
  jobPostingId: string;
}

const TABLE = 'job_postings';

/** A key of one app and employer as one string (its sourceName and jobPostingId), for maps. */
export function keyString(key: Pick<PostingKey, 'sourceName' | 'jobPostingId'>): string {
  return `${key.sourceName}\u0000${key.jobPostingId}`;
}

export function postingOf(row: PostingRow): StoredPosting {
  return {
    id: row.id,
    sourcedPostingId: row.sourced_posting_id,
    employerJobId: employerJobIdOf(row.sourced_posting_id),
    appId: row.app_id,
    employerId: row.employer_id,
    content: JSON.parse(row.posting) as PostingContent,
    datePublished: Number(row.date_published),
    activeFrom: Number(row.active_from),
    expiredAt: row.expired_at === null ? null : Number(row.expired_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export function rowOf(posting: StoredPosting): PostingRow {
  const { content } = posting;
  return {
    id: posting.id,
    sourced_posting_id: posting.sourcedPostingId,
    app_id: posting.appId,
    employer_id: posting.employerId,
    source_name: content.jobSource.sourceName,
    job_posting_id: content.jobPostingId,
    source_type: content.jobSource.sourceType,
    title: content.title,
    company_name: content.jobSource.companyName,
    posting: JSON.stringify(content),
    date_published: posting.datePublished,
    active_from: posting.activeFrom,
    expired_at: posting.expiredAt,
    created_at: posting.createdAt,
    updated_at: posting.updatedAt,
  };
}

/** The SQL of job_postings; Job Sync is its only writer. */
export class PostingStore extends Store {
  /**
   * The stored postings under these keys (one app and employer), by keyString. Each key is held
   * until the transaction ends whether a posting holds it yet or not: another writer of any of
   * them waits for this transaction's end. Call it once per transaction with every key it
   * writes, and two writers never deadlock.
   */
  async lockByKeys(keys: readonly PostingKey[]): Promise<Map<string, StoredPosting>> {
    const found = new Map<string, StoredPosting>();
    if (!keys.length) return found;
    const { appId, employerId } = keys[0]!;
    const owner = `${appId}\u0000${employerId}`;
    await this.serializeOnKeys(
      TABLE,
      keys.map((key) => `${owner}\u0000${keyString(key)}`),
    );
    const ids = await this.idsByKeys(appId, employerId, keys);
    const rows: PostingRow[] = ids.length
      ? await this.forUpdate(this.db<PostingRow>(TABLE).whereIn('id', ids))
      : [];
    for (const row of rows) {
      found.set(
        keyString({ sourceName: row.source_name, jobPostingId: row.job_posting_id }),
        postingOf(row),
      );
    }
    return found;
  }

  /**
   * The ids of the postings under these keys: one probe of the whole upsert key per key, in
   * one statement, whatever the planner believes about the table. PostgreSQL reads
   * `(source_name, job_posting_id) IN (…)` as an OR of pairs tested on every posting of the app
   * and employer, and hashes those postings for a join with the keys when its statistics say
   * the app and employer have few of them (both took 300–500 ms a batch at 40,000 postings in
   * the bench, whose ANALYZE ran before any). Nobody else can add a posting under a key this
   * transaction holds (lockByKeys), so these ids stay the keys' until it ends.
   */
  private async idsByKeys(
    appId: string,
    employerId: string,
    keys: readonly PostingKey[],
  ): Promise<string[]> {
    const rows = (await this.dialect.select(
      this.db,
      `SELECT (SELECT p.id FROM ${TABLE} p
                WHERE p.app_id = ? AND p.employer_id = ?
                  AND p.source_name = wanted.column1 AND p.job_posting_id = wanted.column2) AS id
       FROM (VALUES ${keys.map(() => '(?, ?)').join(', ')}) AS wanted`,
      [appId, employerId, ...keys.flatMap((key) => [key.sourceName, key.jobPostingId])],
    )) as unknown as Array<{ id: string | null }>;
    return rows.flatMap((row) => (row.id === null ? [] : [row.id]));
  }

  /** Inserts new postings, whose keys this transaction holds (lockByKeys) and no posting has. */
  async insert(postings: readonly StoredPosting[]): Promise<void> {
    if (postings.length) await this.db(TABLE).insert(postings.map(rowOf));
  }

  async replace(posting: StoredPosting): Promise<void> {
    const { id: _id, created_at: _created, ...fields } = rowOf(posting);
    await this.db(TABLE).where({ id: posting.id }).update(fields);
  }

  async expire(id: string, at: number): Promise<void> {
    await this.db(TABLE).where({ id }).update({ expired_at: at, updated_at: at });
  }

  /**
   * The sourceType already used with each of these sourceNames by this app and employer, in one
   * statement of one indexed probe per distinct name (never a scan of a name's postings).
   */
  async sourceTypesOf(
    owner: Omit<PostingKey, 'sourceName' | 'jobPostingId'>,
    sourceNames: readonly string[],
  ): Promise<Map<string, string>> {
    const names = [...new Set(sourceNames)];
    if (!names.length) return new Map();
    const rows = (await this.dialect.select(
      this.db,
      `WITH wanted(name) AS (VALUES ${names.map(() => '(?)').join(', ')})
       SELECT wanted.name AS source_name,
              (SELECT p.source_type FROM ${TABLE} p
                WHERE p.app_id = ? AND p.employer_id = ? AND p.source_name = wanted.name
                LIMIT 1) AS source_type
       FROM wanted`,
      [...names, owner.appId, owner.employerId],
    )) as unknown as Array<{ source_name: string; source_type: string | null }>;
    return new Map(
      rows
        .filter((row) => row.source_type !== null)
        .map((row) => [row.source_name, row.source_type!]),
    );
  }

  /** Postings of the app and employer by sourcedPostingId, unlocked. */
  async owned(
    owner: { appId: string; employerId: string },
    sourcedPostingIds: readonly string[],
  ): Promise<StoredPosting[]> {
    if (!sourcedPostingIds.length) return [];
    const rows = await this.db<PostingRow>(TABLE)
      .where({ app_id: owner.appId, employer_id: owner.employerId })
      .whereIn('sourced_posting_id', [...sourcedPostingIds]);
    return rows.map(postingOf);
  }

  /** The employer's postings by sourcedPostingId (any app of the employer). */
  async ofEmployer(
    employerId: string,
    sourcedPostingIds: readonly string[],
  ): Promise<StoredPosting[]> {
    if (!sourcedPostingIds.length) return [];
    const rows = await this.db<PostingRow>(TABLE)
      .where({ employer_id: employerId })
      .whereIn('sourced_posting_id', [...sourcedPostingIds]);
    return rows.map(postingOf);
  }

  /** One page of an app's postings, the latest change first (id breaks ties). */
  async pageOfApp(
    appId: string,
    limit: number,
    after?: { updatedAt: number; id: string },
  ): Promise<StoredPosting[]> {
    const query = this.db<PostingRow>(TABLE).where({ app_id: appId });
    if (after) {
      query.andWhere((older) =>
        older
          .where('updated_at', '<', after.updatedAt)
          .orWhere((tie) => tie.where('updated_at', after.updatedAt).andWhere('id', '<', after.id)),
      );
    }
    const rows = await query
      .orderBy([
        { column: 'updated_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(limit);
    return rows.map(postingOf);
  }

  async countOfApp(appId: string): Promise<number> {
    const row = await this.db(TABLE).where({ app_id: appId }).count({ count: '*' }).first();
    return Number(row?.count ?? 0);
  }
}
