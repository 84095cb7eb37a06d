import type {
  CreateSourcedJobPostingInput,
  SourcedJobPostingBodyInput,
  SourcedJobPostingIndeedApplyInput,
  SourcedJobPostingJobSourceInput,
  SourcedJobPostingLocationInput,
} from '../../../generated/graphql.js';
import {
  boundedList,
  httpUrl,
  InputProblem,
  knownCountry,
  optionalLine,
  optionalText,
  pathText,
  requiredLine,
  type InputPath,
} from '../../validation/input-text.js';
import { checkEmployerIdentifiers } from '../../validation/employer-identifiers.js';
import { SOURCE_TYPES, type PostingContent, type SourceType } from '../posting.js';
import { checkContacts } from './contact-rules.js';
import { checkDatePublished } from './date-published.js';
import { checkSalary } from './salary-rules.js';

export const MAX_DESCRIPTION_BYTES = 65_000;
export const REMOTE_TYPES = ['Fully Remote', 'Hybrid Remote', 'Temporarily Remote'];
export const PLACEMENT_NEEDS_STAFFING_AGENCY =
  'isPlacement is true, so sourceType must be "Staffing Agency"';
const JOB_TYPE_LABELS = [
  'Full-time',
  'Part-time',
  'Internship',
  'Volunteer',
  'Apprenticeship',
  'Contract',
  'Temporary',
  'Per diem',
  'Permanent',
];
const SUID = /^[A-Z0-9]{5}$/;

/**
 * Checks one posting of createSourcedJobPostings against the input rules of platform-apis.md
 * §3.2 and returns it as it is stored; the first broken rule is thrown as an InputProblem whose
 * path is inside the posting (`body.salary.maximumMinor`).
 */
export function checkPosting(input: CreateSourcedJobPostingInput, now: number): PostingContent {
  const { body, metadata } = input;
  const country = knownCountry(body.location.country, ['body', 'location', 'country']);
  const inJapan = country === 'JP';
  const taxonomy = metadata.taxonomyClassification;
  return {
    ...checkBody(body, inJapan),
    location: checkLocation(body.location, country),
    jobSource: checkJobSource(metadata.jobSource, ['metadata', 'jobSource']),
    jobPostingId: requiredLine(metadata.jobPostingId, ['metadata', 'jobPostingId'], 255),
    jobRequisitionId: optionalLine(
      metadata.jobRequisitionId,
      ['metadata', 'jobRequisitionId'],
      255,
    ),
    evergreenRequisitionId: optionalLine(
      metadata.evergreenRequisitionId,
      ['metadata', 'evergreenRequisitionId'],
      255,
    ),
    talentPoolId: optionalLine(metadata.talentPoolId, ['metadata', 'talentPoolId'], 255),
    jobTypes: checkJobTypes(taxonomy?.jobTypes, inJapan),
    categories: boundedList(
      taxonomy?.categories,
      ['metadata', 'taxonomyClassification', 'categories'],
      10,
    ).map((category, index) =>
      requiredLine(category, ['metadata', 'taxonomyClassification', 'categories', index], 200),
    ),
    datePublished: checkDatePublished(metadata.datePublished, ['metadata', 'datePublished'], now),
    url: metadata.url ?? null,
    contacts: checkContacts(metadata.contacts, ['metadata', 'contacts']),
    indeedApply: input.applyMethod?.indeedApply
      ? checkIndeedApply(input.applyMethod.indeedApply, ['applyMethod', 'indeedApply'])
      : null,
  };
}

type BodyPart = Pick<
  PostingContent,
  | 'title'
  | 'subtitle'
  | 'description'
  | 'descriptionFormatting'
  | 'salary'
  | 'hasProbationaryPeriod'
  | 'probationaryPeriod'
  | 'benefits'
>;

function checkBody(body: SourcedJobPostingBodyInput, inJapan: boolean): BodyPart {
  const formatting = body.descriptionFormatting ?? 'TEXT';
  const description = optionalText(
    body.description,
    ['body', 'description'],
    MAX_DESCRIPTION_BYTES,
  );
  if (description === null) {
    throw new InputProblem('body.description must not be empty', ['body', 'description']);
  }
  const bytes = Buffer.byteLength(description, 'utf8');
  if (bytes > MAX_DESCRIPTION_BYTES) {
    throw new InputProblem(
      `body.description is ${bytes} bytes long: at most 65,000 bytes are allowed`,
      ['body', 'description'],
    );
  }
  if (inJapan && formatting === 'RICH_FORMATTING') checkJapaneseSegments(description);
  const probation = body.probationaryPeriod;
  return {
    title: requiredLine(body.title, ['body', 'title'], 200),
    subtitle: optionalLine(body.subtitle, ['body', 'subtitle'], 200),
    description,
    descriptionFormatting: formatting,
    salary: body.salary ? checkSalary(body.salary, ['body', 'salary'], inJapan) : null,
    hasProbationaryPeriod: body.hasProbationaryPeriod ?? 'UNKNOWN',
    probationaryPeriod: probation
      ? {
          probationaryConditions: optionalText(
            probation.probationaryConditions,
            ['body', 'probationaryPeriod', 'probationaryConditions'],
            2000,
          ),
          probationarySalary: probation.probationarySalary
            ? checkSalary(
                probation.probationarySalary,
                ['body', 'probationaryPeriod', 'probationarySalary'],
                false,
              )
            : null,
        }
      : null,
    benefits: boundedList(body.benefits, ['body', 'benefits'], 50).map((benefit, index) =>
      requiredLine(benefit, ['body', 'benefits', index], 200),
    ),
  };
}

/** Japan requires the JobDescription and WorkHours segments of an HTML description. */
function checkJapaneseSegments(description: string): void {
  for (const label of ['JobDescription', 'WorkHours']) {
    if (!description.includes(`data-segment-label="${label}"`)) {
      throw new InputProblem(
        `body.description of a job in Japan needs the segment data-segment-label="${label}"`,
        ['body', 'description'],
      );
    }
  }
}

function checkLocation(
  location: SourcedJobPostingLocationInput,
  country: string,
): PostingContent['location'] {
  const path = ['body', 'location'];
  const remoteType = optionalLine(location.remoteType, [...path, 'remoteType'], 40);
  if (remoteType !== null && !REMOTE_TYPES.includes(remoteType)) {
    throw new InputProblem(
      `body.location.remoteType must be one of ${REMOTE_TYPES.map((type) => `"${type}"`).join(', ')}`,
      [...path, 'remoteType'],
    );
  }
  const cityRegionPostal = optionalLine(
    location.cityRegionPostal,
    [...path, 'cityRegionPostal'],
    200,
  );
  if (cityRegionPostal === null && remoteType !== 'Fully Remote') {
    throw new InputProblem(
      'body.location.cityRegionPostal is required unless remoteType is "Fully Remote"',
      [...path, 'cityRegionPostal'],
    );
  }
  return {
    country,
    cityRegionPostal,
    streetAddress: optionalLine(location.streetAddress, [...path, 'streetAddress'], 200),
    remoteType,
  };
}

function checkJobSource(
  source: SourcedJobPostingJobSourceInput,
  path: InputPath,
): PostingContent['jobSource'] {
  const sourceType = source.sourceType as SourceType;
  if (!SOURCE_TYPES.includes(sourceType)) {
    throw new InputProblem(
      `sourceType must be one of ${SOURCE_TYPES.map((type) => `"${type}"`).join(', ')}`,
      [...path, 'sourceType'],
    );
  }
  const isPlacement = source.isPlacement ?? false;
  if (isPlacement && sourceType !== 'Staffing Agency') {
    throw new InputProblem(PLACEMENT_NEEDS_STAFFING_AGENCY, [...path, 'sourceType']);
  }
  return {
    companyName: requiredLine(source.companyName, [...path, 'companyName'], 255),
    companyWebsite: source.companyWebsite ?? null,
    sourceName: requiredLine(source.sourceName, [...path, 'sourceName'], 255),
    sourceType,
    employerIds: boundedList(source.employerIds, [...path, 'employerIds'], 10).map((pair, index) =>
      checkEmployerIdentifiers(pair, [...path, 'employerIds', index]),
    ),
    isPlacement,
    originFeedSystemName: optionalLine(
      source.originFeedSystemName,
      [...path, 'originFeedSystemName'],
      255,
    ),
  };
}

function checkJobTypes(jobTypes: readonly string[] | null | undefined, inJapan: boolean): string[] {
  const path = ['metadata', 'taxonomyClassification', 'jobTypes'];
  return boundedList(jobTypes, path, 10).map((jobType, index) => {
    const label = JOB_TYPE_LABELS.includes(jobType);
    if ((!label || inJapan) && !SUID.test(jobType)) {
      throw new InputProblem(
        inJapan
          ? `${pathText([...path, index])}: jobs in Japan take taxonomy SUIDs only, such as "CF3CP"`
          : `${pathText([...path, index])}: ${JSON.stringify(jobType.slice(0, 40))} is neither ` +
              `a job type label (${JOB_TYPE_LABELS.join(', ')}) nor a taxonomy SUID`,
        [...path, index],
      );
    }
    return jobType;
  });
}

function checkIndeedApply(
  apply: SourcedJobPostingIndeedApplyInput,
  path: InputPath,
): Record<string, unknown> {
  if (new URL(apply.postUrl).protocol !== 'https:') {
    throw new InputProblem(`${pathText([...path, 'postUrl'])} must be an https URL`, [
      ...path,
      'postUrl',
    ]);
  }
  const applyQuestions = optionalLine(apply.applyQuestions, [...path, 'applyQuestions'], 2048);
  if (applyQuestions !== null && !httpUrl(applyQuestions, 2048)) {
    throw new InputProblem(`${pathText([...path, 'applyQuestions'])} must be an http(s) URL`, [
      ...path,
      'applyQuestions',
    ]);
  }
  const details = apply.applyQuestionsDetails;
  const detailsPath = [...path, 'applyQuestionsDetails'];
  const questions = (name: 'questions' | 'screenerQuestions' | 'demographicQuestions') =>
    boundedList(details?.[name], [...detailsPath, name], 50).map((question, index) =>
      requiredLine(question, [...detailsPath, name, index], 10_000),
    );
  const screenerQuestions = questions('screenerQuestions');
  const resumeRequired = apply.resumeRequired ?? 'YES';
  if (resumeRequired !== 'YES' && applyQuestions === null && screenerQuestions.length === 0) {
    throw new InputProblem(
      `resumeRequired ${resumeRequired} needs screener questions: set applyQuestions or ` +
        'applyQuestionsDetails.screenerQuestions',
      [...path, 'resumeRequired'],
    );
  }
  const fields = (name: 'resumeFieldsRequired' | 'resumeFieldsOptional') =>
    boundedList(apply[name], [...path, name], 20).map((field, index) =>
      requiredLine(field, [...path, name, index], 100),
    );
  // apiToken is accepted (public clients send it) and never stored.
  return {
    postUrl: apply.postUrl,
    jobMeta: optionalText(apply.jobMeta, [...path, 'jobMeta'], 4000),
    phoneRequired: apply.phoneRequired ?? 'OPTIONAL',
    coverLetterRequired: apply.coverLetterRequired ?? 'OPTIONAL',
    resumeRequired,
    applyQuestions,
    questions: questions('questions'),
    screenerQuestions,
    demographicQuestions: questions('demographicQuestions'),
    resumeFieldsRequired: fields('resumeFieldsRequired'),
    resumeFieldsOptional: fields('resumeFieldsOptional'),
    nameFormat: optionalLine(apply.nameFormat, [...path, 'nameFormat'], 50),
  };
}
