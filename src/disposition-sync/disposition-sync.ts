import type { PartnerDispositionInput } from '../../generated/graphql.js';
import type { Clock } from '../clock.js';
import type {
  DispositionIdentifier,
  DispositionPage,
  DispositionOwner,
  SendOutcome,
  StoredDisposition,
} from './disposition.js';
import { dispositionKey } from './disposition-key.js';
import { pageSize } from '../validation/page-size.js';
import { cursorPosition, dispositionCursor } from './disposition-pages.js';
import type { DispositionRow, DispositionStore, NewDispositionRow } from './disposition-store.js';
import { checkRequest, type AcceptedDisposition } from './send-rules.js';

/**
 * Disposition Sync: `send` checks a request (send-rules.ts), stores what passed in one
 * statement of one transaction, and tells which failed and why; the read side pages an owner's
 * dispositions back, the latest status change first.
 */
export class DispositionSync {
  constructor(
    private readonly store: DispositionStore,
    private readonly clock: Clock,
  ) {}

  async send(
    owner: DispositionOwner,
    dispositions: readonly PartnerDispositionInput[],
  ): Promise<SendOutcome> {
    const now = this.clock.now();
    const checked = checkRequest(dispositions, now);
    const accepted = checked.flatMap((entry) => ('accepted' in entry ? [entry.accepted] : []));
    const rows = new Map<string, NewDispositionRow>();
    for (const disposition of accepted) {
      const row = rowOf(owner, disposition, now);
      if (!rows.has(row.dedupe_key)) rows.set(row.dedupe_key, row);
    }
    await this.store.inTransaction((store) => store.insertNew([...rows.values()]));
    return {
      numberGoodDispositions: accepted.length,
      failedDispositions: checked.flatMap((entry) => ('failed' in entry ? [entry.failed] : [])),
    };
  }

  /** One page of the owner's dispositions (`partnerDispositions`). */
  async page(
    owner: DispositionOwner,
    request: { first?: number | null; after?: string | null },
  ): Promise<DispositionPage> {
    const size = pageSize(request.first);
    const rows = await this.store.page(owner, cursorPosition(request.after), size + 1);
    return pageOf(rows, size);
  }

  /** One page of an app's dispositions for every employer (the console's list). */
  async pageOfApp(appId: string, after: string | null, size: number): Promise<DispositionPage> {
    const rows = await this.store.pageOfApp(appId, cursorPosition(after), size + 1);
    return pageOf(rows, size);
  }
}

function pageOf(rows: readonly DispositionRow[], size: number): DispositionPage {
  const edges = rows.slice(0, size).map((row) => {
    const node = storedDisposition(row);
    const position = { statusChangedAt: node.statusChangeDateTime.epochMs, id: Number(row.id) };
    return { node, cursor: dispositionCursor(position) };
  });
  return { edges, hasNextPage: rows.length > size };
}

function rowOf(
  owner: DispositionOwner,
  disposition: AcceptedDisposition,
  now: number,
): NewDispositionRow {
  return {
    app_id: owner.appId,
    employer_id: owner.employerId,
    dedupe_key: dispositionKey(owner, disposition),
    identified_by: JSON.stringify(disposition.identifiedBy),
    disposition_status: disposition.dispositionStatus,
    raw_disposition_status: disposition.rawDispositionStatus,
    raw_disposition_details: disposition.rawDispositionDetails,
    ats_name: disposition.atsName,
    status_changed_at: disposition.statusChangeDateTime.epochMs,
    status_change_offset: disposition.statusChangeDateTime.offsetMinutes,
    application_source_name: disposition.applicationSourceName,
    received_at: now,
  };
}

/** A stored row as the API and the console show it. */
export function storedDisposition(row: DispositionRow): StoredDisposition {
  return {
    id: String(row.id),
    employerId: row.employer_id,
    identifiedBy: JSON.parse(row.identified_by) as DispositionIdentifier,
    dispositionStatus: row.disposition_status,
    rawDispositionStatus: row.raw_disposition_status,
    rawDispositionDetails: row.raw_disposition_details,
    atsName: row.ats_name,
    statusChangeDateTime: {
      epochMs: Number(row.status_changed_at),
      offsetMinutes: row.status_change_offset,
    },
    applicationSourceName: row.application_source_name,
    receivedAt: { epochMs: Number(row.received_at), offsetMinutes: 0 },
  };
}
