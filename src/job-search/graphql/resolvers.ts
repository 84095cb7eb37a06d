import type {
  AtLeastResolvers,
  AtMostResolvers,
  ExactlyResolvers,
  JobSearchCompensationResolvers,
  JobSearchEmployerDetailsResolvers,
  JobSearchEmployerDossierResolvers,
  JobSearchEmployerImagesResolvers,
  JobSearchEmployerLinksResolvers,
  JobSearchEmployerResolvers,
  JobSearchEstimatedCompensationResolvers,
  JobSearchFormattedLocationResolvers,
  JobSearchJobAttributeResolvers,
  JobSearchJobDescriptionResolvers,
  JobSearchJobLocationResolvers,
  JobSearchJobResolvers,
  JobSearchJobSourceResolvers,
  JobSearchPageInfoResolvers,
  JobSearchPayloadResolvers,
  JobSearchRecruitResolvers,
  JobSearchResultResolvers,
  JobSearchSalaryRangeResolvers,
  JobSearchSalaryResolvers,
  QueryResolvers,
  RangeResolvers,
} from '../../../generated/graphql.js';
import type { ApiResolvers } from '../../graphql/api.js';
import {
  compensationOf,
  descriptionOf,
  detailedSalaryOf,
  employerOf,
  jobAttributesOf,
  locationOf,
  workScheduleOf,
} from '../job-view.js';
import type { JobSearchContext } from './context.js';

const Query: Pick<QueryResolvers<JobSearchContext>, 'jobSearch'> = {
  jobSearch: (_root, args, context) => context.jobSearch.search(args),
};

const JobSearchPayload: JobSearchPayloadResolvers = {
  results: (page) => [...page.results],
  pageInfo: (page) => ({ nextCursor: page.nextCursor }),
};

const JobSearchPageInfo: JobSearchPageInfoResolvers = {
  nextCursor: (info) => info.nextCursor,
};

const JobSearchResult: JobSearchResultResolvers = {
  trackingKey: (result) => result.trackingKey,
  job: (result) => result.posting,
};

const JobSearchJob: JobSearchJobResolvers = {
  source: (row) => ({ name: row.source_name }),
  key: (row) => row.sourced_posting_id,
  title: (row) => row.title,
  datePublished: (row) => Number(row.date_published),
  dateOnIndeed: (row) => Number(row.active_from),
  description: (row) => descriptionOf(row),
  location: (row) => locationOf(row),
  compensation: (row) => compensationOf(row),
  attributes: (row) => jobAttributesOf(row),
  employer: (row) => employerOf(row),
  recruit: (row) => ({
    viewJobUrl: row.url,
    detailedSalary: detailedSalaryOf(row),
    workSchedule: workScheduleOf(row),
  }),
};

// The nested objects are built whole by JobSearchJob's resolvers; these read them back.

const JobSearchJobSource: JobSearchJobSourceResolvers = { name: (source) => source.name };

const JobSearchJobDescription: JobSearchJobDescriptionResolvers = {
  html: (description) => description.html,
  text: (description) => description.text,
};

const JobSearchJobLocation: JobSearchJobLocationResolvers = {
  countryName: (location) => location.countryName,
  countryCode: (location) => location.countryCode,
  admin1Code: (location) => location.admin1Code,
  city: (location) => location.city,
  postalCode: (location) => location.postalCode,
  streetAddress: (location) => location.streetAddress,
  formatted: (location) => location.formatted,
};

const JobSearchFormattedLocation: JobSearchFormattedLocationResolvers = {
  short: (formatted) => formatted.short,
  long: (formatted) => formatted.long,
};

const JobSearchCompensation: JobSearchCompensationResolvers = {
  baseSalary: (compensation) => compensation.baseSalary,
  currencyCode: (compensation) => compensation.currencyCode,
  estimated: (compensation) => compensation.estimated,
};

const JobSearchEstimatedCompensation: JobSearchEstimatedCompensationResolvers = {
  currencyCode: (estimated) => estimated.currencyCode,
  baseSalary: (estimated) => estimated.baseSalary,
};

const JobSearchSalary: JobSearchSalaryResolvers = {
  unitOfWork: (salary) => salary.unitOfWork,
  range: (salary) => salary.range,
};

const JobSearchSalaryRange: JobSearchSalaryRangeResolvers = {
  __resolveType: (range) => {
    if ('value' in range) return 'Exactly';
    if ('min' in range) return 'max' in range ? 'Range' : 'AtLeast';
    return 'AtMost';
  },
};

const Range: RangeResolvers = { min: (range) => range.min, max: (range) => range.max };
const AtLeast: AtLeastResolvers = { min: (range) => range.min };
const AtMost: AtMostResolvers = { max: (range) => range.max };
const Exactly: ExactlyResolvers = { value: (range) => range.value };

const JobSearchJobAttribute: JobSearchJobAttributeResolvers = {
  key: (attribute) => attribute.key,
  label: (attribute) => attribute.label,
};

const JobSearchEmployer: JobSearchEmployerResolvers = {
  name: (employer) => employer.name,
  relativeCompanyPageUrl: (employer) => employer.relativeCompanyPageUrl,
  dossier: (employer) => employer.dossier,
};

const JobSearchEmployerDossier: JobSearchEmployerDossierResolvers = {
  employerDetails: (dossier) => dossier.employerDetails,
  images: (dossier) => dossier.images,
  links: (dossier) => dossier.links,
};

const JobSearchEmployerDetails: JobSearchEmployerDetailsResolvers = {
  addresses: (details) => details.addresses,
  industry: (details) => details.industry,
  employeesLocalizedLabel: (details) => details.employeesLocalizedLabel,
  revenueLocalizedLabel: (details) => details.revenueLocalizedLabel,
  briefDescription: (details) => details.briefDescription,
  ceoName: (details) => details.ceoName,
  ceoPhotoUrl: (details) => details.ceoPhotoUrl,
};

const JobSearchEmployerImages: JobSearchEmployerImagesResolvers = {
  headerImageUrl: (images) => images.headerImageUrl,
  squareLogoUrl: (images) => images.squareLogoUrl,
};

const JobSearchEmployerLinks: JobSearchEmployerLinksResolvers = {
  corporateWebsite: (links) => links.corporateWebsite,
};

const JobSearchRecruit: JobSearchRecruitResolvers = {
  viewJobUrl: (recruit) => recruit.viewJobUrl,
  detailedSalary: (recruit) => recruit.detailedSalary,
  workSchedule: (recruit) => recruit.workSchedule,
};

/**
 * Every resolver of the job search API (schema/job-search.graphql), typed by the generated
 * resolvers in which every field is mandatory.
 */
export const jobSearchResolvers = {
  Query,
  JobSearchPayload,
  JobSearchPageInfo,
  JobSearchResult,
  JobSearchJob,
  JobSearchJobSource,
  JobSearchJobDescription,
  JobSearchJobLocation,
  JobSearchFormattedLocation,
  JobSearchCompensation,
  JobSearchEstimatedCompensation,
  JobSearchSalary,
  JobSearchSalaryRange,
  Range,
  AtLeast,
  AtMost,
  Exactly,
  JobSearchJobAttribute,
  JobSearchEmployer,
  JobSearchEmployerDossier,
  JobSearchEmployerDetails,
  JobSearchEmployerImages,
  JobSearchEmployerLinks,
  JobSearchRecruit,
} satisfies ApiResolvers<JobSearchContext>;
