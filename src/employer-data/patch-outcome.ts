/** What `patchEmployer` answers. */
export interface PatchOutcome {
  employerKey: string;
  /** True when the employer was created or changed. */
  changed: boolean;
}
