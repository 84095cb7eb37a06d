import type { Answer, JobsApisClient } from './jobs-apis-client.js';
import type { LedgerCheck } from './posting-ledger.js';

interface SentDisposition {
  identifiedBy: { indeedApplyID: string };
  dispositionStatus: string;
  rawDispositionStatus: string;
  statusChangeDateTime: string;
}

/** The identity of a disposition (docs/jobs-apis.md, "Stored once, counted as good"). */
function keyOf(disposition: SentDisposition): string {
  return [
    disposition.identifiedBy.indeedApplyID,
    disposition.dispositionStatus,
    disposition.rawDispositionStatus,
    Date.parse(disposition.statusChangeDateTime),
  ].join(' ');
}

/**
 * The dispositions a load sent and what each request was told: every acknowledged one must be
 * read back exactly once, and nothing that was never sent.
 */
export class DispositionLedger {
  readonly faults: string[] = [];
  private readonly acknowledged = new Set<string>();
  private readonly attempted = new Set<string>();

  sent(dispositions: SentDisposition[], answer: Answer): void {
    const keys = dispositions.map(keyOf);
    for (const key of keys) this.attempted.add(key);
    if (answer.kind === 'fault') this.faults.push(answer.detail);
    if (answer.kind !== 'data') return;
    if (answer.data !== dispositions.length) {
      this.faults.push(`${answer.data} of ${dispositions.length} dispositions counted as good`);
    }
    for (const key of keys) this.acknowledged.add(key);
  }

  async check(reader: JobsApisClient): Promise<LedgerCheck> {
    const problems: string[] = [];
    const stored = (await reader.allDispositions()).map(keyOf);
    const seen = new Set<string>();
    for (const key of stored) {
      if (seen.has(key)) problems.push(`disposition ${key} is stored twice`);
      if (!this.attempted.has(key)) problems.push(`disposition ${key} was never sent`);
      seen.add(key);
    }
    for (const key of this.acknowledged) {
      if (!seen.has(key)) problems.push(`acknowledged disposition ${key} is missing`);
    }
    return {
      problems,
      counts: { acknowledged: this.acknowledged.size, stored: stored.length },
    };
  }
}

/**
 * `count` dispositions drawn from `applications` applications (ids `<prefix>-<n>`) with two
 * statuses each, at an instant fixed by application and status (so that requests overlap),
 * oldest first.
 */
export function overlappingDispositions(
  count: number,
  applications: number,
  prefix: string,
  random: () => number,
): SentDisposition[] {
  const statuses = [
    ['NEW', 'Application received'],
    ['REVIEW', 'Under review'],
  ] as const;
  const chosen = new Map<string, SentDisposition>();
  while (chosen.size < Math.min(count, applications * statuses.length)) {
    const application = Math.floor(random() * applications);
    const status = Math.floor(random() * statuses.length);
    const disposition = {
      identifiedBy: { indeedApplyID: `${prefix}-${application}` },
      dispositionStatus: statuses[status]![0],
      rawDispositionStatus: statuses[status]![1],
      atsName: 'Acme ATS',
      statusChangeDateTime: new Date(Date.UTC(2026, 9, 1, 9, application, status)).toISOString(),
    };
    chosen.set(keyOf(disposition), disposition);
  }
  return [...chosen.values()].sort(
    (a, b) => Date.parse(a.statusChangeDateTime) - Date.parse(b.statusChangeDateTime),
  );
}
