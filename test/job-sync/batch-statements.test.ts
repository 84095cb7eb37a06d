import assert from 'node:assert/strict';
import { MAX_POSTINGS_PER_REQUEST } from '../../src/job-sync/posting-writer.js';
import { testCliServices } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { insertTenant } from '../support/interview-fixtures.js';
import { writerInput } from '../support/job-postings.js';
import { sqlDuring } from '../support/statements.js';

/**
 * A batch of Job Sync writes costs a few statements, not a few per posting: the stored
 * postings and sourceTypes of the whole batch are read at once, the new ones inserted in one
 * statement, and the search index and the webhook outbox told together.
 */
/** How many statements, and the start of each, for a failure's message. */
function summary(sql: readonly string[]): string {
  return `${sql.length} statements:\n${sql.map((text) => text.slice(0, 100)).join('\n')}`;
}

describeEachDialect('Job Sync: a batch in a few statements', (database) => {
  const batch = (prefix: string, title?: string, sourceOf?: (i: number) => string) =>
    Array.from({ length: MAX_POSTINGS_PER_REQUEST }, (_, i) =>
      writerInput(`${prefix}-${i}`, title, sourceOf?.(i)),
    );

  it('creates, then updates, 100 postings with a bounded number of statements each time', async () => {
    const { db } = database();
    const tenant = await insertTenant(db, 'batch');
    const { jobs } = testCliServices(db);
    const owner = { appId: tenant.appId, employerId: tenant.employerId };

    const created = await sqlDuring(db, () => jobs.postings.createOrUpdate(owner, batch('b')));
    assert.deepEqual(
      created.result.filter((outcome) => outcome.problem).map((o) => o.problem?.message),
      [],
    );
    assert.ok(created.sql.length <= 12, summary(created.sql));
    assert.equal(
      await db('job_postings')
        .count({ n: '*' })
        .first()
        .then((r) => Number(r?.n)),
      100,
    );

    // The same keys again with a new title: 100 updates, each its own UPDATE, nothing else each.
    const updated = await sqlDuring(db, () =>
      jobs.postings.createOrUpdate(owner, batch('b', 'Staff Engineer')),
    );
    assert.ok(
      updated.result.every((outcome) => outcome.posting?.content.title === 'Staff Engineer'),
    );
    assert.ok(updated.sql.length <= 112, summary(updated.sql));
    const rows = await db('job_postings').select('title');
    assert.deepEqual(new Set(rows.map((row) => row.title)), new Set(['Staff Engineer']));

    // A source per posting: their sourceTypes are still read in one statement.
    const sources = await sqlDuring(db, () =>
      jobs.postings.createOrUpdate(
        owner,
        batch('s', undefined, (i) => `Board ${i}`),
      ),
    );
    assert.ok(sources.result.every((outcome) => outcome.posting && !outcome.problem));
    assert.ok(sources.sql.length <= 12, summary(sources.sql));
  });
});
