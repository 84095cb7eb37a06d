import type { Database } from '../../src/db/database.js';
import type { Answer } from './jobs-apis-client.js';
import type { LedgerCheck } from './posting-ledger.js';
import { cameAfter, type TimedWrite } from './timed-writes.js';

interface Patch extends TimedWrite {
  tag: string;
  employerKey?: string;
}

/** Tags as employerPatch writes them into every field it sets. */
const TAG = /patch-[a-z0-9-]+/g;

/**
 * A patchEmployer of `pair` in which every field it sets carries `tag`, so that the stored
 * employer shows which patch each field came from.
 */
export function employerPatch(pair: { type: string; id: string }, tag: string): object {
  const digits = String(Array.from(tag).reduce((sum, c) => sum * 31 + c.charCodeAt(0), 7) % 10_000);
  return {
    id: pair,
    employerName: `Acme ${tag}`,
    employerAttributes: {
      employerType: 'JURIDICAL_PERSON',
      countrySpecificAttributes: [
        {
          country: 'US',
          websiteUrl: `https://acme.example.com/${tag}`,
          taxId: tag,
          phoneNumber: `+1 512 555 ${digits.padStart(4, '0')}`,
        },
      ],
      localeSpecificAttributes: [
        {
          country: 'US',
          language: 'en',
          localizedName: `Acme ${tag}`.slice(0, 60),
          description: `Patched by ${tag}.`,
          headquarterAddress: `1 ${tag} Way, Austin, TX`,
        },
      ],
    },
  };
}

/**
 * Racing patches of one employer and what each client was told, to check that the stored
 * employer is one patch whole (every tagged field from the same one), and not one older than an
 * acknowledged patch sent after it was answered.
 */
export class EmployerPatchLedger {
  readonly faults: string[] = [];
  private readonly patches: Patch[] = [];

  constructor(readonly pair: { type: string; id: string }) {}

  patched(tag: string, { answer, write }: { answer: Answer; write: TimedWrite }): void {
    if (answer.kind === 'fault') this.faults.push(answer.detail);
    if (answer.kind === 'data' && answer.data.attributeUpdated !== true) {
      this.faults.push(`patch ${tag} changed nothing: ${JSON.stringify(answer.data)}`);
    }
    this.patches.push({
      ...write,
      tag,
      ...(answer.kind === 'data' && { employerKey: answer.data.employerKey as string }),
    });
  }

  async check(db: Database, ownerUserId: string): Promise<LedgerCheck> {
    const rows = await db('partner_employers').where({
      owner_user_id: ownerUserId,
      id_type: this.pair.type,
      external_id: this.pair.id,
    });
    const acknowledged = this.patches.filter((patch) => patch.acknowledged);
    const counts = { patches: this.patches.length, acknowledged: acknowledged.length };
    if (rows.length !== 1) {
      return acknowledged.length || rows.length
        ? { problems: [`${rows.length} employer rows for one pair`], counts }
        : { problems: [], counts };
    }
    const [row] = rows;
    const problems: string[] = [];
    const tags = new Set(JSON.stringify([row.employer_name, row.attributes]).match(TAG));
    if (tags.size !== 1) problems.push(`the employer mixes patches ${[...tags].join(', ')}`);
    const source = this.patches.find((patch) => tags.has(patch.tag));
    if (!source) problems.push(`the employer holds ${[...tags]}, which no request sent`);
    const newer = source && acknowledged.find((patch) => cameAfter(patch, source));
    if (newer)
      problems.push(`the employer holds ${source.tag}, older than acknowledged ${newer.tag}`);
    const keys = new Set(acknowledged.map((patch) => patch.employerKey));
    if (keys.size > 1 || (keys.size === 1 && !keys.has(row.id))) {
      problems.push(`patches were answered with keys ${[...keys]}; the employer is ${row.id}`);
    }
    return { problems, counts };
  }
}
