import assert from 'node:assert/strict';
import { ManualClock } from '../../src/clock.js';
import type { Principal } from '../../src/oauth/principal.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL, type GraphQLBody } from '../support/graphql-client.js';
import { employerAppPrincipal, insertTenant } from '../support/interview-fixtures.js';
import {
  CREATE,
  EXPIRE,
  PATCH_EMPLOYER,
  STATUS,
  enableApis,
  postingInput,
} from '../support/job-postings.js';
import { startTestService } from '../support/service.js';

const DAY = 24 * 60 * 60 * 1000;
const START = Date.UTC(2026, 10, 1, 12);

type Posting = ReturnType<typeof postingInput>;
type ItemError = {
  message: string;
  path: Array<string | number>;
  extensions: { code: string; validatedPath?: Array<string | number> };
};

/**
 * Every input rule of createSourcedJobPostings (platform-apis.md §3.2), each with the posting it
 * breaks, the message it answers and the input value it names (`extensions.validatedPath`).
 */
const RULES: Array<[string, (posting: Posting) => void, string | RegExp, string[]]> = [
  [
    'an empty title',
    (p) => (p.body.title = '  '),
    'body.title must not be empty',
    ['body', 'title'],
  ],
  [
    'a title past 200 characters',
    (p) => (p.body.title = 'x'.repeat(201)),
    'body.title is longer than 200 characters',
    ['body', 'title'],
  ],
  [
    'a description past 65,000 bytes',
    // 21,700 three-byte characters: 65,100 bytes in 21,700 characters.
    (p) => (p.body.description = '€'.repeat(21_700)),
    'body.description is 65100 bytes long: at most 65,000 bytes are allowed',
    ['body', 'description'],
  ],
  [
    'a minimum salary of 0',
    (p) => (p.body.salary.minimumMinor = 0),
    'Minimum amount must be greater than 0',
    ['body', 'salary', 'minimumMinor'],
  ],
  [
    'a maximum salary below the minimum',
    (p) => (p.body.salary.maximumMinor = 100),
    'Maximum amount cannot be less than minimum amount',
    ['body', 'salary', 'maximumMinor'],
  ],
  [
    'an unknown salary period',
    (p) => (p.body.salary.period = 'FORTNIGHT'),
    'body.salary.period must be one of DAY, HOUR, MILE, MONTH, WEEK, YEAR, TASK, SHIFT',
    ['body', 'salary', 'period'],
  ],
  [
    'a TASK period without its task',
    (p) => (p.body.salary.period = 'TASK'),
    'A TASK salary period needs taskBasedSalaryInformation',
    ['body', 'salary', 'taskBasedSalaryInformation'],
  ],
  [
    'an unknown country',
    (p) => (p.body.location.country = 'XX'),
    'body.location.country: "XX" is not an ISO 3166-1 alpha-2 country code',
    ['body', 'location', 'country'],
  ],
  [
    'no cityRegionPostal for a job that is not fully remote',
    (p) => delete (p.body.location as { cityRegionPostal?: string }).cityRegionPostal,
    'body.location.cityRegionPostal is required unless remoteType is "Fully Remote"',
    ['body', 'location', 'cityRegionPostal'],
  ],
  [
    'an unknown sourceType',
    (p) => (p.metadata.jobSource.sourceType = 'Recruiter'),
    'sourceType must be one of "Employer", "Job Board", "Staffing Agency"',
    ['metadata', 'jobSource', 'sourceType'],
  ],
  [
    'a placement that is not from a staffing agency',
    (p) => Object.assign(p.metadata.jobSource, { isPlacement: true }),
    'isPlacement is true, so sourceType must be "Staffing Agency"',
    ['metadata', 'jobSource', 'sourceType'],
  ],
  [
    'no contact of type "contact"',
    (p) => (p.metadata.contacts[0]!.contactType = 'recruiter'),
    'No contacts found with type "contact"',
    ['metadata', 'contacts'],
  ],
  [
    'two contacts of type "contact"',
    (p) => p.metadata.contacts.push({ ...p.metadata.contacts[0]! }),
    'Multiple contacts with type "contact" found',
    ['metadata', 'contacts'],
  ],
  [
    'an invalid phone number',
    (p) => Object.assign(p.metadata.contacts[0]!.contactInfo, { contactPhone: 'call me' }),
    'metadata.contacts[0].contactInfo.contactPhone is not a valid phone number',
    ['metadata', 'contacts', '0', 'contactInfo', 'contactPhone'],
  ],
  [
    'an invalid datetime',
    (p) => (p.metadata.datePublished = 'yesterday'),
    /^datePublished "yesterday" is not a valid datetime/,
    ['metadata', 'datePublished'],
  ],
  [
    'a datePublished in the future',
    (p) => (p.metadata.datePublished = '2026-11-02T12:00Z'),
    'datePublished must not be in the future: postings cannot be scheduled',
    ['metadata', 'datePublished'],
  ],
  [
    'an unknown job type',
    (p) => Object.assign(p.metadata, { taxonomyClassification: { jobTypes: ['Gig'] } }),
    /^metadata\.taxonomyClassification\.jobTypes\[0\]: "Gig" is neither a job type label/,
    ['metadata', 'taxonomyClassification', 'jobTypes', '0'],
  ],
  [
    'an apply URL that is not https',
    (p) => (p.applyMethod.indeedApply.postUrl = 'http://ats.example.com/apply'),
    'applyMethod.indeedApply.postUrl must be an https URL',
    ['applyMethod', 'indeedApply', 'postUrl'],
  ],
  [
    'no resume without screener questions',
    (p) => Object.assign(p.applyMethod.indeedApply, { resumeRequired: 'NO' }),
    /^resumeRequired NO needs screener questions/,
    ['applyMethod', 'indeedApply', 'resumeRequired'],
  ],
  [
    'an employer pair nobody created with patchEmployer',
    (p) => Object.assign(p.metadata.jobSource, { employerIds: [{ type: 'ats', id: 'nobody' }] }),
    'No employer with type "ats" and id "nobody": create it with patchEmployer first',
    ['metadata', 'jobSource', 'employerIds', '0'],
  ],
];

describeEachDialect(
  'Job Sync: the contract of createSourcedJobPostings, expiry and node',
  (database) => {
    let service: Awaited<ReturnType<typeof startTestService>>;
    const clock = new ManualClock(START);
    const principals: Record<string, Principal> = {};

    before(async () => {
      const { db } = database();
      const tenant = await insertTenant(db, 'jobs');
      const other = await insertTenant(db, 'other-employer');
      const disabled = await insertTenant(db, 'not-enabled');
      await enableApis(db, tenant.appId, ['job-sync', 'employer-data']);
      await enableApis(db, other.appId, ['job-sync']);
      principals.employer = employerAppPrincipal(tenant);
      principals.noEmployer = { ...employerAppPrincipal(tenant), employerId: null };
      principals.other = employerAppPrincipal(other);
      principals.disabled = employerAppPrincipal(disabled);
      service = await startTestService(database(), {
        clock,
        env: { JOB_SYNC_INDEXING_DELAY_MS: '60000' },
        authenticate: async (token) => principals[token] ?? null,
      });
    });
    after(async () => {
      await service?.stop();
    });

    async function call(
      query: string,
      variables: object,
      token = 'employer',
    ): Promise<GraphQLBody> {
      const { status, body } = await postGraphQL(service.url, token, { query, variables });
      assert.equal(status, 200);
      return body;
    }

    async function create(...postings: Posting[]) {
      const body = await call(CREATE, { input: { jobPostings: postings } });
      return { body, results: body.data?.jobsIngest?.createSourcedJobPostings?.results };
    }

    async function createOne(posting: Posting) {
      const { body, results } = await create(posting);
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      return results[0].jobPosting as { sourcedPostingId: string; employerJobId: string };
    }

    async function status(id: string, token = 'employer') {
      const body = await call(STATUS, { id }, token);
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      return body.data.node;
    }

    const lifecycle = (node: any) => node.seats[0].jobPost.status.globalStatus.lifecycleStatus;

    for (const [rule, breakIt, message, path] of RULES) {
      it(`rejects ${rule}, alone, in input order`, async () => {
        const bad = postingInput(`rule-${rule}`);
        breakIt(bad);
        const { body, results } = await create(postingInput(`fine-${rule}`), bad);
        assert.match(results[0].jobPosting.sourcedPostingId, /^[0-9a-f-]{36}$/);
        assert.equal(results[1].jobPosting, null);
        const [error, ...others] = body.errors as ItemError[];
        assert.deepEqual(others, []);
        if (typeof message === 'string') assert.equal(error!.message, message);
        else assert.match(error!.message, message);
        assert.deepEqual(error!.path, [
          'jobsIngest',
          'createSourcedJobPostings',
          'results',
          1,
          'jobPosting',
        ]);
        assert.equal(error!.extensions.code, 'BAD_USER_INPUT');
        assert.deepEqual(error!.extensions.validatedPath!.map(String), [
          'input',
          'jobPostings',
          '1',
          ...path,
        ]);
      });
    }

    it('refuses a whole request of more than 100 postings, of none, or with duplicates', async () => {
      const many = Array.from({ length: 101 }, (_, i) => postingInput(`many-${i}`));
      const cases: Array<[Posting[], string]> = [
        [many, 'jobPostings holds 101 postings: at most 100 are allowed per request'],
        [[], 'jobPostings must hold at least one posting'],
        [
          [postingInput('twice'), postingInput('other'), postingInput('twice', 'Again')],
          'Duplicate job entries: jobPostings[0] and jobPostings[2] have the same sourceName and jobPostingId',
        ],
      ];
      for (const [postings, message] of cases) {
        const { body } = await create(...postings);
        assert.deepEqual(body.data, { jobsIngest: { createSourcedJobPostings: null } });
        assert.equal(body.errors![0]!.message, message);
        assert.equal(body.errors![0]!.extensions.code, 'BAD_USER_INPUT');
      }
      const { db } = database();
      const written = await db('job_postings').whereIn('job_posting_id', ['twice', 'other']);
      assert.equal(written.length, 0, 'a refused request writes nothing');
    });

    it('keeps one sourceType per sourceName', async () => {
      await createOne(postingInput('board-1'));
      const board = postingInput('board-2');
      board.metadata.jobSource.sourceType = 'Job Board';
      const { body } = await create(board);
      assert.equal(
        body.errors![0]!.message,
        'sourceName "Acme ATS" is already used with sourceType "Employer": one sourceType per sourceName',
      );
    });

    it('accepts a fully remote job without a place, a staffing agency placement, and Int64 strings', async () => {
      const remote = postingInput('remote');
      remote.body.location = {
        country: 'DE',
        remoteType: 'Fully Remote',
      } as unknown as Posting['body']['location'];
      const placement = postingInput('placement');
      Object.assign(placement.metadata.jobSource, {
        sourceName: 'Staffers',
        sourceType: 'Staffing Agency',
        isPlacement: true,
      });
      Object.assign(placement.body.salary, {
        minimumMinor: '9007199254740993',
        maximumMinor: null,
      });
      const { body, results } = await create(remote, placement);
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      assert.equal(results.length, 2);
    });

    it('upserts by sourceName and jobPostingId: the same id, the new values', async () => {
      const first = await createOne(postingInput('upsert', 'Welder'));
      const second = await createOne(postingInput('upsert', 'Senior Welder'));
      assert.deepEqual(second, first);
      assert.equal((await status(first.sourcedPostingId)).jobData.title, 'Senior Welder');
      const { db } = database();
      assert.equal((await db('job_postings').where({ job_posting_id: 'upsert' })).length, 1);
    });

    it('is PENDING for the indexing delay, then ACTIVE, and INACTIVE once expired', async () => {
      const posting = await createOne(postingInput('lifecycle'));
      assert.equal(lifecycle(await status(posting.sourcedPostingId)), 'PENDING');
      clock.advance(60_000);
      const active = await status(posting.employerJobId);
      assert.equal(lifecycle(active), 'ACTIVE');
      assert.equal(active.seats[0].jobPost.status.globalStatus.isIndeedApplyActive, true);
      assert.equal(active.id, posting.employerJobId);

      const body = await call(EXPIRE, {
        input: { jobs: [{ sourcedPostingId: posting.employerJobId }] },
      });
      const [result] = body.data.jobsIngest.expireSourcedJobsBySourcedPostingId.results;
      assert.match(result.trackingKey, /^[0-9a-f-]{36}$/);
      assert.deepEqual(result.inputData, { sourcedPostingId: posting.employerJobId });
      const inactive = await status(posting.sourcedPostingId);
      assert.equal(lifecycle(inactive), 'INACTIVE');
      assert.equal(inactive.seats[0].jobPost.status.globalStatus.isIndeedApplyActive, false);
    });

    it('expires again without complaint, and names an unknown id in its own error', async () => {
      const posting = await createOne(postingInput('expire-twice'));
      const unknown = '00000000-0000-4000-8000-000000000000';
      const body = await call(EXPIRE, {
        input: {
          jobs: [
            { sourcedPostingId: posting.sourcedPostingId },
            { sourcedPostingId: unknown },
            { sourcedPostingId: posting.sourcedPostingId },
          ],
        },
      });
      const results = body.data.jobsIngest.expireSourcedJobsBySourcedPostingId.results;
      assert.ok(results[0].trackingKey && results[2].trackingKey);
      assert.equal(results[1].trackingKey, null);
      assert.deepEqual(results[1].inputData, { sourcedPostingId: unknown });
      const [error] = body.errors as ItemError[];
      assert.equal(
        error!.message,
        `No job posting with sourcedPostingId "${unknown}" for this app and employer`,
      );
      assert.equal(error!.extensions.code, 'NOT_FOUND');
      assert.deepEqual(error!.path, [
        'jobsIngest',
        'expireSourcedJobsBySourcedPostingId',
        'results',
        1,
        'trackingKey',
      ]);
    });

    it('reactivates with the same id within 30 days of expiry, with a new one after', async () => {
      const posting = await createOne(postingInput('reactivate'));
      await call(EXPIRE, { input: { jobs: [{ sourcedPostingId: posting.sourcedPostingId }] } });
      clock.advance(30 * DAY);
      const within = await createOne(postingInput('reactivate'));
      assert.deepEqual(within, posting);
      assert.equal(lifecycle(await status(posting.sourcedPostingId)), 'PENDING');

      await call(EXPIRE, { input: { jobs: [{ sourcedPostingId: posting.sourcedPostingId }] } });
      clock.advance(30 * DAY + 1);
      const after = await createOne(postingInput('reactivate'));
      assert.notEqual(after.sourcedPostingId, posting.sourcedPostingId);
      assert.equal(await status(posting.sourcedPostingId), null, 'the old id names nothing now');
      assert.equal(lifecycle(await status(after.sourcedPostingId)), 'PENDING');
    });

    it('takes employerIds that patchEmployer created for this app', async () => {
      const pair = { type: 'ats-employer', id: 'acme-42' };
      const patched = await call(PATCH_EMPLOYER, { input: { id: pair, employerName: 'Acme' } });
      assert.equal(patched.errors, undefined, JSON.stringify(patched.errors));
      const posting = postingInput('with-employer');
      Object.assign(posting.metadata.jobSource, { employerIds: [pair] });
      await createOne(posting);
    });

    it('shows a posting to its employer only: another employer and unknown ids get null', async () => {
      const posting = await createOne(postingInput('private'));
      assert.equal(await status(posting.sourcedPostingId, 'other'), null);
      for (const id of ['not-an-id', 'aXJpOi8vZm9v', '00000000-0000-4000-8000-000000000001']) {
        assert.equal(await status(id), null);
      }
      const body = await call('query($ids: [ID!]!) { nodes(ids: $ids) { id } }', {
        ids: [posting.employerJobId, 'unknown', posting.sourcedPostingId],
      });
      assert.deepEqual(body.data.nodes, [
        { id: posting.employerJobId },
        null,
        { id: posting.employerJobId },
      ]);
    });

    it('refuses a token without an employer, and an app not enabled for Job Sync', async () => {
      const noEmployer = await call(
        CREATE,
        { input: { jobPostings: [postingInput('x')] } },
        'noEmployer',
      );
      assert.equal(noEmployer.errors![0]!.extensions.code, 'FORBIDDEN');
      assert.match(
        noEmployer.errors![0]!.message,
        /^Client is not authorized: Job Sync needs an access token issued for one employer/,
      );
      const disabled = await call(
        CREATE,
        { input: { jobPostings: [postingInput('x')] } },
        'disabled',
      );
      assert.deepEqual(disabled.data, { jobsIngest: null });
      assert.equal(disabled.errors![0]!.extensions.code, 'FORBIDDEN');
      assert.match(
        disabled.errors![0]!.message,
        /^Client is not authorized: this app is not enabled for the Job Sync API \("job-sync"\)/,
      );
    });

    it('answers the root createSourcedJobPostings form like the jobsIngest one', async () => {
      const body = await call(
        `mutation($input: CreateSourcedJobPostingsInput) {
        createSourcedJobPostings(input: $input) { results { jobPosting { sourcedPostingId } } }
      }`,
        { input: { jobPostings: [postingInput('root-form')] } },
      );
      assert.equal(body.errors, undefined);
      assert.match(
        body.data.createSourcedJobPostings.results[0].jobPosting.sourcedPostingId,
        /^[0-9a-f-]{36}$/,
      );
      const missing = await call(
        'mutation { createSourcedJobPostings { results { jobPosting { sourcedPostingId } } } }',
        {},
      );
      assert.deepEqual(missing.data, { createSourcedJobPostings: null });
      assert.equal(missing.errors![0]!.message, 'input is required');
    });
  },
);
