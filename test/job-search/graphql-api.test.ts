import assert from 'node:assert/strict';
import type { ApiAccessService } from '../../src/accounts/api-access-service.js';
import type { AppRow } from '../../src/db/rows.js';
import { composeJobSearch } from '../../src/job-search/compose.js';
import type { Principal } from '../../src/oauth/principal.js';
import { testCliServices, testSharedDependencies } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL, withoutCost } from '../support/graphql-client.js';
import { employerAppPrincipal, insertTenant } from '../support/interview-fixtures.js';
import { startTestService } from '../support/service.js';
import { changed, HOUR, posting } from './postings.js';

/** The query of the public client (speedyapply/JobSpy), as it sends it. */
const JOBSPY_QUERY = `query GetJobData {
  jobSearch(what: "software engineer", location: {where: "Austin, TX", radius: 50, radiusUnit: MILES},
            limit: 100, sort: RELEVANCE, filters: {date: {field: "dateOnIndeed", start: "72h"}}) {
    pageInfo { nextCursor }
    results { trackingKey job {
      source { name } key title datePublished dateOnIndeed description { html text }
      location { countryName countryCode admin1Code city postalCode streetAddress formatted { short long } }
      compensation { estimated { currencyCode baseSalary { unitOfWork range { ... on Range { min max } } } }
                     baseSalary { unitOfWork range { ... on Range { min max } } } currencyCode }
      attributes { key label }
      employer { relativeCompanyPageUrl name dossier { employerDetails { addresses industry employeesLocalizedLabel
                 revenueLocalizedLabel briefDescription ceoName ceoPhotoUrl } images { headerImageUrl squareLogoUrl }
                 links { corporateWebsite } } }
      recruit { viewJobUrl detailedSalary workSchedule } } }
  }
}`;

/**
 * jobSearch through the real gateway: refused until the app is enabled for the job search API,
 * then answering the public client's query with the documented shapes.
 */
describeEachDialect('job search: the GraphQL API', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  let access: ApiAccessService;
  let app: AppRow;
  const principals: Record<string, Principal> = {};
  const published = Date.now() - 2 * HOUR;

  before(async () => {
    const { db } = database();
    await db('job_search_postings').delete();
    const tenant = await insertTenant(db, 'search');
    principals.app = { ...employerAppPrincipal(tenant), employerId: null, scopes: [] };
    service = await startTestService(database(), {
      authenticate: async (token) => principals[token] ?? null,
    });
    access = testCliServices(db).apiAccess;
    app = (await db('apps').where({ id: tenant.appId }).first()) as AppRow;
    const jobs = composeJobSearch(testSharedDependencies(db));
    await changed(
      db,
      jobs.postingObserver,
      posting({
        sourcedPostingId: '6f1c1a58-2d5e-4c6e-9d0c-3c0a1a7f0b11',
        title: 'Senior Software Engineer',
        companyName: 'Acme Robotics',
        companyWebsite: 'https://acme.example',
        sourceName: 'Acme Careers',
        description: '<p>Build <b>robots</b> &amp; tools.</p>',
        descriptionFormatting: 'RICH_FORMATTING',
        location: {
          country: 'US',
          cityRegionPostal: 'Austin, TX, 78701',
          streetAddress: '100 Congress Ave',
        },
        salary: {
          currency: 'USD',
          minimumMinor: '12000000',
          maximumMinor: '15000000',
          period: 'YEAR',
        },
        jobTypes: ['Full-time', 'Remote'],
        url: 'https://acme.example/jobs/42',
        datePublished: published,
        activeFrom: published + 60_000,
        updatedAt: published + 60_000,
      }),
    );
  });
  after(async () => {
    await service?.stop();
  });

  const call = async (query: string) =>
    withoutCost((await postGraphQL(service.url, 'app', { query })).body);

  it('answers FORBIDDEN until the app is enabled for the job search API', async () => {
    const refused = await call('query { jobSearch(what: "engineer") { pageInfo { nextCursor } } }');
    assert.deepEqual(refused.data, { jobSearch: null });
    const [error] = refused.errors ?? [];
    assert.deepEqual(error?.extensions, { code: 'FORBIDDEN', api: 'job-search' });
    assert.match(
      error!.message,
      /^Client is not authorized: this app is not enabled for the Job search API/,
    );
  });

  it("answers the public client's query with every field it selects", async () => {
    assert.equal(await access.setEnabled(app, 'job-search', true), true);
    const answer = await call(JOBSPY_QUERY);
    assert.equal(answer.errors, undefined, JSON.stringify(answer.errors));
    const { results, pageInfo } = answer.data.jobSearch;
    assert.deepEqual(pageInfo, { nextCursor: null });
    assert.equal(results.length, 1);
    assert.match(results[0].trackingKey, /^[\w-]{16}$/);
    assert.deepEqual(results[0].job, {
      source: { name: 'Acme Careers' },
      key: '6f1c1a58-2d5e-4c6e-9d0c-3c0a1a7f0b11',
      title: 'Senior Software Engineer',
      datePublished: published,
      dateOnIndeed: published + 60_000,
      description: {
        html: '<p>Build <b>robots</b> &amp; tools.</p>',
        text: 'Build robots & tools.',
      },
      location: {
        countryName: 'United States',
        countryCode: 'US',
        admin1Code: 'TX',
        city: 'Austin',
        postalCode: '78701',
        streetAddress: '100 Congress Ave',
        formatted: { short: 'Austin, TX', long: 'Austin, TX 78701, United States' },
      },
      compensation: {
        estimated: null,
        baseSalary: { unitOfWork: 'YEAR', range: { min: 120000, max: 150000 } },
        currencyCode: 'USD',
      },
      attributes: [
        { key: 'CF3CP', label: 'Full-time' },
        { key: 'DSQF7', label: 'Remote' },
      ],
      employer: {
        relativeCompanyPageUrl: null,
        name: 'Acme Robotics',
        dossier: {
          employerDetails: null,
          images: null,
          links: { corporateWebsite: 'https://acme.example' },
        },
      },
      recruit: {
        viewJobUrl: 'https://acme.example/jobs/42',
        detailedSalary: '$120,000 - $150,000 a year',
        workSchedule: 'Full-time, Remote',
      },
    });
  });

  it('answers a place it does not know, and bad arguments, with BAD_USER_INPUT', async () => {
    await access.setEnabled(app, 'job-search', true);
    const unknown = await call(
      'query { jobSearch(location: {where: "Nowhere Springs, ZZ"}) { results { trackingKey } } }',
    );
    assert.deepEqual(unknown.data, { jobSearch: null });
    assert.equal(unknown.errors?.[0]?.extensions.code, 'BAD_USER_INPUT');
    assert.match(
      unknown.errors![0]!.message,
      /location\.where "Nowhere Springs, ZZ" is not a place/,
    );
    for (const [args, message] of [
      ['limit: 500', /limit must be a whole number from 1 to 100/],
      ['location: {where: "Austin, TX", radius: -5}', /location\.radius must be/],
      ['cursor: "bm9wZQ"', /cursor is not a cursor of jobSearch/],
    ] as const) {
      const refused = await call(`query { jobSearch(${args}) { results { trackingKey } } }`);
      assert.equal(refused.errors?.[0]?.extensions.code, 'BAD_USER_INPUT', args);
      assert.match(refused.errors![0]!.message, message);
    }
  });
});
