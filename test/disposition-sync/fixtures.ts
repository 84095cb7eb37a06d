import type { Database } from '../../src/db/database.js';
import type { AppRow } from '../../src/db/rows.js';
import { testCliServices } from '../support/compose.js';

/** The documented example of an Indeed Apply ID's disposition, varied by `fields`. */
export function disposition(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    identifiedBy: { indeedApplyID: 'apply-0001' },
    dispositionStatus: 'NEW',
    rawDispositionStatus: 'Application received',
    atsName: 'Acme ATS',
    statusChangeDateTime: '2025-01-31T12:00:00.000Z',
    ...fields,
  };
}

/** `count` dispositions of distinct applications, one minute apart, oldest first. */
export function distinctDispositions(count: number, prefix = 'apply'): Record<string, unknown>[] {
  return Array.from({ length: count }, (_, index) =>
    disposition({
      identifiedBy: { indeedApplyID: `${prefix}-${String(index).padStart(4, '0')}` },
      statusChangeDateTime: new Date(Date.UTC(2025, 0, 31, 12, index)).toISOString(),
    }),
  );
}

/** `iri://apis.indeed.com/EmployerJob/{id}`, base64-encoded: the form of an employerJobId. */
export function employerJobId(internalId: string): string {
  return Buffer.from(`iri://apis.indeed.com/EmployerJob/${internalId}`).toString('base64');
}

/** Lets the app use Disposition Sync (it is off until its owner enables it). */
export async function enableDispositionSync(db: Database, appId: string): Promise<void> {
  const app = (await db('apps').where({ id: appId }).first()) as AppRow;
  await testCliServices(db).apiAccess.setEnabled(app, 'disposition-sync', true);
}

/** The send operation as hacktoolkit/django-htk writes it (platform-apis.md §5). */
export const SEND = `mutation Send($input: SendPartnerDispositionInput!) {
  partnerDisposition {
    send(input: $input) {
      numberGoodDispositions
      failedDispositions {
        identifiedBy {
          indeedApplyID
        }
        rationale
      }
    }
  }
}`;
