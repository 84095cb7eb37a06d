/**
 * The taxonomy attributes of the hosted platform's job types (the keys its search filters and
 * answers use, as public clients list them), by the labels postings send in
 * `taxonomyClassification.jobTypes`. A posting may send the key itself instead of the label.
 */
const JOB_TYPE_ATTRIBUTES: ReadonlyArray<readonly [key: string, label: string]> = [
  ['CF3CP', 'Full-time'],
  ['75GKK', 'Part-time'],
  ['NJXCK', 'Contract'],
  ['VDTG7', 'Internship'],
  ['4HKF7', 'Temporary'],
  ['TQKYQ', 'Per diem'],
  ['UXQZ8', 'Volunteer'],
  ['5QWDV', 'Permanent'],
  ['DSQF7', 'Remote'],
  ['PAXZC', 'Hybrid'],
];

const BY_NAME = new Map(
  JOB_TYPE_ATTRIBUTES.flatMap(([key, label]) => {
    const attribute = { key, label };
    return [
      [key.toLowerCase(), attribute],
      [label.toLowerCase().replace(/[^a-z]/g, ''), attribute],
    ] as const;
  }),
);

/** Most attributes a result lists (JobSearchJob.attributes' bound). */
export const MOST_ATTRIBUTES = 20;

/** The attributes of a posting's job types, known ones only, each once. */
export function attributesOf(jobTypes: readonly string[]): { key: string; label: string }[] {
  const found = new Map<string, { key: string; label: string }>();
  for (const jobType of jobTypes) {
    const attribute =
      BY_NAME.get(jobType.toLowerCase()) ??
      BY_NAME.get(jobType.toLowerCase().replace(/[^a-z]/g, ''));
    if (attribute) found.set(attribute.key, attribute);
  }
  return [...found.values()].slice(0, MOST_ATTRIBUTES);
}
