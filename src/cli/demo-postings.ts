import type { ApiAccessService } from '../accounts/api-access-service.js';
import type { AppRow } from '../db/rows.js';
import type { EmployerPatcher } from '../employer-data/employer-patcher.js';
import type { PostingWriter } from '../job-sync/posting-writer.js';

const DEMO_PAIR = { type: 'demo-ats', id: 'demo-employer-north' };
const DEMO_JOBS = [
  { key: 'DEMO-1', title: 'Software Engineer', place: 'Austin, TX, 78701', country: 'US' },
  { key: 'DEMO-2', title: 'Data Analyst', place: 'Berlin, 10115', country: 'DE' },
  { key: 'DEMO-3', title: 'Warehouse Associate', place: 'Denver, CO, 80202', country: 'US' },
];

/**
 * The demo app's Jobs APIs switched on, the employer its postings cite (Employer Data) and a
 * few postings (Job Sync) for `employerId`; answers the postings' sourcedPostingIds.
 */
export async function createDemoPostings(
  services: { apiAccess: ApiAccessService; employers: EmployerPatcher; postings: PostingWriter },
  app: AppRow,
  employerId: string,
): Promise<string[]> {
  for (const api of ['job-sync', 'employer-data']) {
    await services.apiAccess.setEnabled(app, api, true);
  }
  const owner = { appId: app.id, ownerUserId: app.owner_user_id };
  await services.employers.patch(owner, { id: DEMO_PAIR, employerName: 'Demo Employer North' });
  const outcomes = await services.postings.createOrUpdate(
    { appId: app.id, employerId },
    DEMO_JOBS.map((job) => ({
      body: {
        title: job.title,
        description: `A demo posting: ${job.title}, posted by \`npm run cli -- demo\`.`,
        descriptionFormatting: 'TEXT',
        location: { country: job.country, cityRegionPostal: job.place },
        benefits: [],
        hasProbationaryPeriod: 'UNKNOWN',
      },
      metadata: {
        jobPostingId: job.key,
        jobSource: {
          companyName: 'Demo Employer North',
          sourceName: 'Demo ATS',
          sourceType: 'Employer',
          employerIds: [DEMO_PAIR],
          isPlacement: false,
        },
        contacts: [{ contactType: ['contact'], contactInfo: { contactEmail: 'jobs@example.com' } }],
      },
    })),
  );
  return outcomes.map((outcome) => {
    if (!outcome.posting) throw new Error(`demo posting refused: ${outcome.problem?.message}`);
    return outcome.posting.sourcedPostingId;
  });
}
