import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import { testCliServices } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { createOAuthTenant } from '../support/oauth-fixtures.js';
import { enableApis, postingInput } from '../support/job-postings.js';
import { startTestService } from '../support/service.js';
import { TokenRequests } from '../support/token-requests.js';

/**
 * A partner's integration as the public clients write it (platform-apis.md §3–§4): a
 * client-credentials token for the employer, then plain `fetch` POSTs of the documents they send,
 * reading the answers where they read them.
 */
describeEachDialect(
  'Job Sync and Employer Data, called as partner clients call them',
  (database) => {
    let service: Awaited<ReturnType<typeof startTestService>>;
    let token: string;
    let employerId: string;

    before(async () => {
      const { db } = database();
      const tenant = await createOAuthTenant(db, systemClock, 'partner');
      await enableApis(db, tenant.app.id, ['job-sync', 'employer-data']);
      employerId = tenant.employer.id;
      service = await startTestService(database(), { env: { JOB_SYNC_INDEXING_DELAY_MS: '0' } });
      const issued = await new TokenRequests(service.url, tenant.app).clientCredentials(employerId);
      assert.equal(issued.status, 200, JSON.stringify(issued.body));
      token = issued.body.access_token as string;
      // Webhooks of the app, to see the posting changes they are told of.
      const { webhooks } = testCliServices(db);
      await webhooks.endpoints.create(tenant.app.id, { url: 'https://hooks.example.com/jobs' });
    });
    after(async () => {
      await service?.stop();
    });

    async function graphql(query: string, variables: object) {
      const response = await fetch(`${service.url}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, body: (await response.json()) as any };
    }

    it('patchEmployer, as the create-example-employer page sends it', async () => {
      const { body } = await graphql(
        `
          mutation PatchEmployer($input: PatchEmployerInput!) {
            patchEmployer(input: $input) {
              responseCode
              attributeUpdated
              errors {
                message
                detail
                suggestion
              }
            }
          }
        `,
        {
          input: {
            id: { type: 'partner-ats', id: 'acme' },
            employerName: 'Acme Robotics',
            employerAttributes: {
              countrySpecificAttributes: [
                { country: 'US', isGlobalDefault: true, websiteUrl: 'https://acme.example.com' },
              ],
            },
          },
        },
      );
      assert.deepEqual(body, {
        data: { patchEmployer: { responseCode: 'OK', attributeUpdated: true, errors: [] } },
        extensions: body.extensions,
      });
    });

    it('jobsIngest { createSourcedJobPostings } with 100 postings in one request', async () => {
      const postings = Array.from({ length: 100 }, (_, i) => {
        const posting = postingInput(`batch-${i}`, `Engineer ${i}`);
        posting.body.description = `${'A long description of the role. '.repeat(60)}#${i}`;
        Object.assign(posting.metadata.jobSource, {
          employerIds: [{ type: 'partner-ats', id: 'acme' }],
        });
        return posting;
      });
      const request = {
        query: `mutation CreateSourcedJobPostings($input: CreateSourcedJobPostingsInput) {
        jobsIngest { createSourcedJobPostings(input: $input) { results { jobPosting { sourcedPostingId employerJobId } } } }
      }`,
        variables: { input: { jobPostings: postings } },
      };
      assert.ok(JSON.stringify(request).length > 100 * 1024, 'past the ordinary body limit');
      const { status, body } = await graphql(request.query, request.variables);
      assert.equal(status, 200);
      assert.equal(body.errors, undefined, JSON.stringify(body.errors));
      const results = body.data.jobsIngest.createSourcedJobPostings.results;
      assert.equal(results.length, 100);
      const ids = new Set(results.map((result: any) => result.jobPosting.sourcedPostingId));
      assert.equal(ids.size, 100);
    });

    it('refuses the same large body for any other operation', async () => {
      const padding = 'x'.repeat(150 * 1024);
      const { status, body } = await graphql(
        `
          mutation ($pad: ID!) {
            patchEmployer(
              input: { id: { type: "partner-ats", id: $pad }, employerName: "Padded" }
            ) {
              responseCode
            }
          }
        `,
        { pad: padding },
      );
      // As any body past BODY_LIMIT_BYTES: 413, in GraphQL shape.
      assert.equal(status, 413);
      assert.match(JSON.stringify(body), /exceeds the limit of 102400 bytes/);
      assert.equal(body.data, undefined, 'refused before it ran');
    });

    it('the root createSourcedJobPostings form, read at data.createSourcedJobPostings.results', async () => {
      const { body } = await graphql(
        `
          mutation ($input: CreateSourcedJobPostingsInput) {
            createSourcedJobPostings(input: $input) {
              results {
                jobPosting {
                  sourcedPostingId
                }
              }
            }
          }
        `,
        { input: { jobPostings: [postingInput('root-1')] } },
      );
      const [result] = body.data.createSourcedJobPostings.results;
      assert.match(result.jobPosting.sourcedPostingId, /^[0-9a-f-]{36}$/);
    });

    it('node(id) { ... on EmployerJob } for the status, then expireSourcedJobsBySourcedPostingId', async () => {
      const created = await graphql(
        `
          mutation ($input: CreateSourcedJobPostingsInput) {
            jobsIngest {
              createSourcedJobPostings(input: $input) {
                results {
                  jobPosting {
                    sourcedPostingId
                    employerJobId
                  }
                }
              }
            }
          }
        `,
        { input: { jobPostings: [postingInput('status-1', 'Data Analyst')] } },
      );
      const { sourcedPostingId, employerJobId } =
        created.body.data.jobsIngest.createSourcedJobPostings.results[0].jobPosting;
      const statusQuery = `query ($id: ID!) {
      node(id: $id) {
        ... on EmployerJob {
          id
          seats { jobPost { id status { globalStatus { lifecycleStatus isIndeedApplyActive } surfaceStatuses { isRejected isSponsorshipRequired isMissingRequiredSponsorship } } } }
          managementUrls { viewJob }
          jobData { title company externalJobPageUrl salary { period minimumMinor maximumMinor currency minimumMajor maximumMajor } jobLocation { countryCode city postalCode fullAddress } externalPostingMetadata { jobPostingId } }
          roleData { title company description { text } metaData { isExternalIntegratedJob } }
        }
      }
    }`;
      const live = await graphql(statusQuery, { id: sourcedPostingId });
      const job = live.body.data.node;
      assert.equal(job.id, employerJobId);
      assert.deepEqual(job.seats[0].jobPost.status, {
        globalStatus: { lifecycleStatus: 'ACTIVE', isIndeedApplyActive: true },
        surfaceStatuses: [
          { isRejected: false, isSponsorshipRequired: false, isMissingRequiredSponsorship: false },
        ],
      });
      assert.deepEqual(job.jobData.salary, {
        period: 'YEAR',
        minimumMinor: 9_000_000,
        maximumMinor: 12_000_000,
        currency: 'USD',
        minimumMajor: 90_000,
        maximumMajor: 120_000,
      });
      assert.deepEqual(job.jobData.jobLocation, {
        countryCode: 'US',
        city: 'Austin',
        postalCode: '78701',
        fullAddress: 'Austin, TX, 78701, US',
      });
      assert.equal(job.roleData.title, 'Data Analyst');

      const expired = await graphql(
        `
          mutation ($input: ExpireSourcedJobsBySourcedPostingIdInput!) {
            jobsIngest {
              expireSourcedJobsBySourcedPostingId(input: $input) {
                results {
                  trackingKey
                  inputData {
                    ... on ExpireSourcedJobBySourcedPostingIdInfo {
                      sourcedPostingId
                    }
                  }
                }
              }
            }
          }
        `,
        { input: { jobs: [{ sourcedPostingId }] } },
      );
      const [result] = expired.body.data.jobsIngest.expireSourcedJobsBySourcedPostingId.results;
      assert.deepEqual(result.inputData, { sourcedPostingId });
      const after = await graphql(statusQuery, { id: employerJobId });
      assert.equal(
        after.body.data.node.seats[0].jobPost.status.globalStatus.lifecycleStatus,
        'INACTIVE',
      );

      const { db } = database();
      const deliveries = await db('webhook_deliveries')
        .where({ subject: employerJobId })
        .orderBy('sequence');
      assert.deepEqual(
        deliveries.map((delivery) => [delivery.type, JSON.parse(delivery.data)]),
        [
          [
            'job.posting.created.v1',
            { employerJobId, sourcedPostingId, employerId, lifecycleEvent: 'UPDATED' },
          ],
          [
            'job.posting.expired.v1',
            { employerJobId, sourcedPostingId, employerId, lifecycleEvent: 'EXPIRED' },
          ],
        ],
      );
    });
  },
);
