/**
 * A sourced job posting as Job Sync stores it: the partner's posting after the input rules
 * (src/job-sync/rules), and the facts Job Sync keeps beside it.
 */

export type SourceType = 'Employer' | 'Job Board' | 'Staffing Agency';
export const SOURCE_TYPES: readonly SourceType[] = ['Employer', 'Job Board', 'Staffing Agency'];

export interface StoredSalary {
  currency: string;
  /** Minor units as decimal text (Int64). */
  minimumMinor: string;
  maximumMinor: string | null;
  period: string;
  fineGrainedSalaryInformation: Record<string, unknown> | null;
  taskBasedSalaryInformation: { taskDescription: string } | null;
}

export interface PostingContact {
  contactType: string[];
  contactName: string | null;
  contactEmail: string | null;
  contactPhone: string | null;
}

/** The posting as the partner sent it, checked and with defaults applied (stored as JSON). */
export interface PostingContent {
  title: string;
  subtitle: string | null;
  description: string;
  descriptionFormatting: 'TEXT' | 'RICH_FORMATTING';
  salary: StoredSalary | null;
  hasProbationaryPeriod: string;
  probationaryPeriod: Record<string, unknown> | null;
  location: {
    country: string;
    cityRegionPostal: string | null;
    streetAddress: string | null;
    remoteType: string | null;
  };
  benefits: string[];
  jobSource: {
    companyName: string;
    companyWebsite: string | null;
    sourceName: string;
    sourceType: SourceType;
    employerIds: Array<{ type: string; id: string }>;
    isPlacement: boolean;
    originFeedSystemName: string | null;
  };
  jobPostingId: string;
  jobRequisitionId: string | null;
  evergreenRequisitionId: string | null;
  talentPoolId: string | null;
  jobTypes: string[];
  categories: string[];
  /** Epoch ms; null: the moment of the write. */
  datePublished: number | null;
  url: string | null;
  contacts: PostingContact[];
  indeedApply: Record<string, unknown> | null;
}

/** A stored posting with the facts Job Sync keeps of it. Times are epoch ms. */
export interface StoredPosting {
  id: string;
  sourcedPostingId: string;
  employerJobId: string;
  appId: string;
  employerId: string;
  content: PostingContent;
  datePublished: number;
  activeFrom: number;
  expiredAt: number | null;
  createdAt: number;
  updatedAt: number;
}

export type LifecycleStatus = 'PENDING' | 'ACTIVE' | 'INACTIVE';

/** PENDING until indexed, ACTIVE while live, INACTIVE once expired: read from times, at `now`. */
export function lifecycleAt(
  posting: Pick<StoredPosting, 'activeFrom' | 'expiredAt'>,
  now: number,
): LifecycleStatus {
  if (posting.expiredAt !== null && posting.expiredAt <= now) return 'INACTIVE';
  return now >= posting.activeFrom ? 'ACTIVE' : 'PENDING';
}

const IRI_PREFIX = 'iri://apis.indeed.com/EmployerJob/';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The base64 IRI form (`employerJobId`) of the posting whose UUID form is `sourcedPostingId`. */
export function employerJobIdOf(sourcedPostingId: string): string {
  return Buffer.from(`${IRI_PREFIX}${sourcedPostingId}`).toString('base64');
}

/**
 * The `sourcedPostingId` an id names, in either form (the UUID, or the base64 IRI whose internal
 * id is that UUID); null when it is neither.
 */
export function sourcedPostingIdOf(id: string): string | null {
  const lower = id.toLowerCase();
  if (UUID.test(lower)) return lower;
  if (id.length > 200 || !/^[A-Za-z0-9+/]+={0,2}$/.test(id)) return null;
  const decoded = Buffer.from(id, 'base64').toString('utf8');
  if (!decoded.startsWith(IRI_PREFIX)) return null;
  const internal = decoded.slice(IRI_PREFIX.length).toLowerCase();
  return UUID.test(internal) ? internal : null;
}
