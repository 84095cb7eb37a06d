import { Store } from '../db/store.js';
import type {
  EpochMs,
  WebhookAttemptRow,
  WebhookDeliveryRow,
  WebhookDeliveryStatus,
} from '../db/rows.js';

/** A delivery a worker holds until `lease`, with what it needs of its endpoint to send it. */
export interface ClaimedDelivery {
  delivery: WebhookDeliveryRow;
  /** The `leased_until` this claim wrote: what settling the delivery is conditioned on. */
  lease: EpochMs;
  endpoint: {
    url: string;
    enabled: boolean;
    secret_sealed: string;
    previous_secret_sealed: string | null;
    previous_secret_until: EpochMs | null;
  };
}

export interface ClaimRequest {
  now: EpochMs;
  lease: EpochMs;
  /** At most this many deliveries. */
  limit: number;
  /** Endpoints this process sends nothing more to for now (at their cap): not even read. */
  busyEndpoints: readonly string[];
  /** How many more deliveries of the endpoint this claim may take. */
  freeSlotsOf(endpointId: string): number;
}

/** The state an attempt leaves its delivery in. */
export type Settlement =
  | { status: 'delivered'; at: EpochMs }
  | { status: 'failed' }
  | { status: 'pending'; nextAttemptAt: EpochMs };

export type AttemptRecord = Omit<WebhookAttemptRow, 'id' | 'delivery_id'>;

/** One attempt to record with the delivery's new state, under the lease it was sent with. */
export interface SettlementOf {
  deliveryId: number;
  lease: EpochMs;
  attempt: AttemptRecord;
  settlement: Settlement;
}

/** An endpoint the worker just disabled, with what telling its owner takes. */
export interface DisabledEndpoint {
  id: string;
  url: string;
  app_id: string;
  app_name: string;
  client_id: string;
  owner_user_id: string;
}

/** Where a page of an endpoint's deliveries starts: after this one (newest first). */
export interface DeliveryPosition {
  createdAt: EpochMs;
  id: number;
}

/** Attempt rows per INSERT (6 values each: far below either engine's bound on parameters). */
const ATTEMPTS_PER_INSERT = 100;

/**
 * SQL for the delivery side of webhooks: what happens to webhook_deliveries and webhook_attempts
 * after the outbox wrote them (claims, attempts, retries, resends, the purge), and the health
 * columns of webhook_endpoints.
 */
export class DeliveryStore extends Store {
  /**
   * Leases up to `limit` due deliveries, oldest due first. The lease is one UPDATE of rows picked
   * by a subquery that passes over rows other processes are claiming at the same moment
   * (Dialect.skipLocked), so that each row goes to one of them without a transaction of several
   * round trips; a row whose lease ran out (its process died) is due again. Rows beyond an
   * endpoint's free slots are given back at once (rare: full endpoints are not even read).
   */
  async claim(request: ClaimRequest): Promise<ClaimedDelivery[]> {
    const due = this.dialect.skipLocked(
      this.db('webhook_deliveries')
        .select('id')
        .where('status', 'pending')
        .andWhere('next_attempt_at', '<=', request.now)
        .andWhere((q) => q.whereNull('leased_until').orWhere('leased_until', '<', request.now))
        .modify((q) => {
          if (request.busyEndpoints.length) q.whereNotIn('endpoint_id', request.busyEndpoints);
        })
        .orderBy('next_attempt_at')
        .limit(request.limit),
      'webhook_deliveries',
    );
    const leased: WebhookDeliveryRow[] = await this.db('webhook_deliveries')
      .whereIn('id', due)
      .update({ leased_until: request.lease })
      .returning('*');
    if (!leased.length) return [];
    const { kept, over } = withinFreeSlots(
      leased.map(deliveryRow).sort((a, b) => a.next_attempt_at - b.next_attempt_at || a.id - b.id),
      request,
    );
    if (over.length) {
      await this.db('webhook_deliveries')
        .whereIn('id', over)
        .andWhere('leased_until', request.lease)
        .update({ leased_until: null });
    }
    const endpoints = await this.claimedEndpoints([...new Set(kept.map((d) => d.endpoint_id))]);
    // A delivery whose endpoint was deleted meanwhile went with it (ON DELETE CASCADE).
    return kept.flatMap((delivery) => {
      const endpoint = endpoints.get(delivery.endpoint_id);
      return endpoint ? [{ delivery, lease: request.lease, endpoint }] : [];
    });
  }

  private async claimedEndpoints(ids: readonly string[]) {
    const rows: Array<ClaimedDelivery['endpoint'] & { id: string }> = await this.db(
      'webhook_endpoints',
    )
      .whereIn('id', ids)
      .select(
        'id',
        'url',
        'enabled',
        'secret_sealed',
        'previous_secret_sealed',
        'previous_secret_until',
      );
    return new Map(
      rows.map(
        ({ id, url, enabled, secret_sealed, previous_secret_sealed, previous_secret_until }) => [
          id,
          {
            url,
            enabled: Boolean(enabled),
            secret_sealed,
            previous_secret_sealed,
            previous_secret_until: nullableNumber(previous_secret_until),
          },
        ],
      ),
    );
  }

  /**
   * Whether a delivery may be due: one plain read (no transaction, no lock), so that a process
   * with nothing to do costs the database little each time it looks.
   */
  async anyDue(now: EpochMs): Promise<boolean> {
    const [row] = await this.db('webhook_deliveries')
      .where('status', 'pending')
      .andWhere('next_attempt_at', '<=', now)
      .select('id')
      .limit(1);
    return row !== undefined;
  }

  /**
   * Records one attempt of a delivery (as long as the delivery exists) and, only while `lease`
   * is still the delivery's, its new state. Returns whether the state was written: false when
   * the lease ran out and another process took the delivery, or a resend re-queued it.
   */
  async settle(
    claimed: Pick<ClaimedDelivery, 'lease'> & { deliveryId: number },
    attempt: AttemptRecord,
    settlement: Settlement,
  ): Promise<boolean> {
    const [written] = await this.settleMany([{ ...claimed, attempt, settlement }]);
    return written!;
  }

  /**
   * `settle` for several attempts (of different deliveries), in the caller's transaction: each
   * state written only under its own lease, all of them in one UPDATE, the attempts in one
   * insert, whatever the group's size (a round trip per attempt held the transaction open for
   * a round trip per attempt, on PostgreSQL). Whether each state was written, in order.
   */
  async settleMany(attempts: readonly SettlementOf[]): Promise<boolean[]> {
    const written = new Set<SettlementOf>();
    for (const round of roundsOfDistinctDeliveries(attempts)) {
      for (const settled of await this.writeStates(round)) written.add(settled);
    }
    // A state not written may be a delivery gone with its endpoint: its attempt goes nowhere.
    const unwritten = attempts.filter((one) => !written.has(one)).map((one) => one.deliveryId);
    const existing = new Set(
      unwritten.length
        ? (await this.db('webhook_deliveries').whereIn('id', unwritten).pluck('id')).map(Number)
        : [],
    );
    const recorded = attempts
      .filter((one) => written.has(one) || existing.has(one.deliveryId))
      .map(({ deliveryId, attempt }) => ({ delivery_id: deliveryId, ...attempt }));
    for (let start = 0; start < recorded.length; start += ATTEMPTS_PER_INSERT) {
      await this.db('webhook_attempts').insert(recorded.slice(start, start + ATTEMPTS_PER_INSERT));
    }
    return attempts.map((one) => written.has(one));
  }

  /** The new states of deliveries (each once) whose lease is still theirs; those written. */
  private async writeStates(round: readonly SettlementOf[]): Promise<SettlementOf[]> {
    const states = round.map(({ deliveryId, attempt, settlement }) => ({
      id: deliveryId,
      ...stateOf(settlement),
      last_attempt_at: attempt.attempted_at,
      last_status_code: attempt.status_code,
    }));
    const byId = (column: keyof (typeof states)[number], type: 'text' | 'bigint') => {
      const set = states.filter((state) => column in state);
      if (!set.length) return this.db.ref(column);
      const bindings = set.flatMap((state) => [state.id, state[column] ?? null]);
      const cases = set.map(() => `when ? then cast(? as ${type})`).join(' ');
      return this.db.raw(`case id ${cases} else ?? end`, [...bindings, column]);
    };
    const updated: Array<{ id: number | string }> = await this.db('webhook_deliveries')
      .whereIn(
        ['id', 'leased_until'],
        round.map(({ deliveryId, lease }) => [deliveryId, lease]),
      )
      .andWhere('status', 'pending')
      .update(
        {
          status: byId('status', 'text'),
          next_attempt_at: byId('next_attempt_at', 'bigint'),
          delivered_at: byId('delivered_at', 'bigint'),
          last_attempt_at: byId('last_attempt_at', 'bigint'),
          last_status_code: byId('last_status_code', 'bigint'),
          attempt_count: this.db.raw('attempt_count + 1'),
          leased_until: null,
        },
        ['id'],
      );
    const ids = new Set(updated.map((row) => Number(row.id)));
    return round.filter((one) => ids.has(one.deliveryId));
  }

  /** Gives a claimed delivery back untried (shutdown): due again at once, for any process. */
  async release(deliveryId: number, lease: EpochMs): Promise<void> {
    await this.db('webhook_deliveries')
      .where({ id: deliveryId, leased_until: lease })
      .update({ leased_until: null });
  }

  /** The endpoints answered 2xx: they are failing no more. */
  async endpointsAnswered(endpointIds: readonly string[]): Promise<void> {
    await this.db('webhook_endpoints')
      .whereIn('id', endpointIds)
      .whereNotNull('failing_since')
      .update({ failing_since: null });
  }

  /**
   * The endpoint failed an attempt at `now`: it is failing since then unless it already was.
   * When it has been failing since `disableIfFailingSince` or before, it is disabled with
   * `reason`; the endpoint is returned when this call disabled it.
   */
  async endpointFailed(
    endpointId: string,
    now: EpochMs,
    disableIfFailingSince: EpochMs,
    reason: (failingSince: EpochMs) => string,
  ): Promise<DisabledEndpoint | undefined> {
    await this.db('webhook_endpoints')
      .where('id', endpointId)
      .whereNull('failing_since')
      .update({ failing_since: now });
    const [row]: Array<{ failing_since: EpochMs | null; enabled: unknown }> = await this.db(
      'webhook_endpoints',
    )
      .where('id', endpointId)
      .select('failing_since', 'enabled');
    const failingSince = nullableNumber(row?.failing_since);
    if (!row || !row.enabled || failingSince === null || failingSince > disableIfFailingSince) {
      return undefined;
    }
    return this.disable(endpointId, now, reason(failingSince), disableIfFailingSince);
  }

  /** Disables the endpoint (it answered 410 Gone); returned when this call disabled it. */
  endpointGone(endpointId: string, now: EpochMs, reason: string) {
    return this.disable(endpointId, now, reason);
  }

  private async disable(
    endpointId: string,
    now: EpochMs,
    reason: string,
    failingSinceAtMost?: EpochMs,
  ): Promise<DisabledEndpoint | undefined> {
    const changed = await this.db('webhook_endpoints')
      .where({ id: endpointId, enabled: true })
      .modify((q) => {
        if (failingSinceAtMost !== undefined) q.andWhere('failing_since', '<=', failingSinceAtMost);
      })
      .update({
        enabled: false,
        disabled_reason: reason.slice(0, 200),
        disabled_at: now,
        updated_at: now,
      });
    if (changed !== 1) return undefined;
    const [endpoint]: DisabledEndpoint[] = await this.db('webhook_endpoints as e')
      .join('apps as a', 'a.id', 'e.app_id')
      .where('e.id', endpointId)
      .select('e.id', 'e.url', 'e.app_id', 'a.name as app_name', 'a.client_id', 'a.owner_user_id');
    return endpoint;
  }

  /** An app's delivery, or undefined when the app has none of that id. */
  async find(appId: string, deliveryId: number): Promise<WebhookDeliveryRow | undefined> {
    const [row] = await this.db('webhook_deliveries')
      .where({ id: deliveryId, app_id: appId })
      .select('*');
    return row && deliveryRow(row);
  }

  /** Up to `limit` deliveries of an endpoint of the app, newest first, after `after`. */
  async list(
    appId: string,
    endpointId: string,
    page: { limit: number; after: DeliveryPosition | null; status?: WebhookDeliveryStatus },
  ): Promise<WebhookDeliveryRow[]> {
    const rows: WebhookDeliveryRow[] = await this.db('webhook_deliveries')
      .where({ app_id: appId, endpoint_id: endpointId })
      .modify((q) => {
        if (page.status) q.andWhere('status', page.status);
        const after = page.after;
        if (after) {
          q.andWhere((older) =>
            older
              .where('created_at', '<', after.createdAt)
              .orWhere((same) =>
                same.where('created_at', after.createdAt).andWhere('id', '<', after.id),
              ),
          );
        }
      })
      .orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(page.limit)
      .select('*');
    return rows.map(deliveryRow);
  }

  /** Every attempt of the given deliveries of an app, by delivery, each oldest first. */
  async attempts(appId: string, deliveryIds: readonly number[]): Promise<WebhookAttemptRow[]> {
    if (deliveryIds.length === 0) return [];
    const rows: WebhookAttemptRow[] = await this.db('webhook_attempts as t')
      .join('webhook_deliveries as d', 'd.id', 't.delivery_id')
      .whereIn('d.id', deliveryIds)
      .where('d.app_id', appId)
      .orderBy([{ column: 't.delivery_id' }, { column: 't.attempted_at' }, { column: 't.id' }])
      .select('t.*');
    return rows.map(attemptRow);
  }

  /**
   * Puts an app's delivery back in the queue, due at `now` with a fresh retry schedule; a
   * process sending it at this moment loses its lease, so its answer changes nothing.
   */
  async requeue(appId: string, deliveryId: number, now: EpochMs): Promise<boolean> {
    const changed = await this.db('webhook_deliveries')
      .where({ id: deliveryId, app_id: appId })
      .update(requeued(now));
    return changed === 1;
  }

  /** Re-queues every failed delivery of an app's endpoint created at `since` or later. */
  async requeueFailed(
    appId: string,
    endpointId: string,
    since: EpochMs,
    now: EpochMs,
  ): Promise<number> {
    return this.db('webhook_deliveries')
      .where({ app_id: appId, endpoint_id: endpointId, status: 'failed' })
      .andWhere('created_at', '>=', since)
      .update(requeued(now));
  }

  /**
   * Deletes up to `limit` delivered or failed deliveries created before `before` (their attempts
   * go with them); returns how many.
   */
  async purge(before: EpochMs, limit: number): Promise<number> {
    return this.db('webhook_deliveries')
      .whereIn(
        'id',
        this.db('webhook_deliveries')
          .select('id')
          .whereIn('status', ['delivered', 'failed'])
          .andWhere('created_at', '<', before)
          .limit(limit),
      )
      .delete();
  }

  /**
   * Deliveries still to make (counted up to `countLimit`) and the earliest instant one of them
   * is due, read on the partial index of pending rows.
   */
  async queue(countLimit: number): Promise<{ depth: number; earliestDue: EpochMs | null }> {
    const [counted]: Array<{ depth: unknown }> = await this.db
      .count({ depth: '*' })
      .from(
        this.db('webhook_deliveries')
          .where('status', 'pending')
          .select('id')
          .limit(countLimit)
          .as('p'),
      );
    const [earliest] = await this.db('webhook_deliveries')
      .where('status', 'pending')
      .min({ due: 'next_attempt_at' });
    return {
      depth: Number(counted?.depth ?? 0),
      earliestDue: nullableNumber(earliest?.due),
    };
  }
}

/** The deliveries a claim keeps, each endpoint's up to its free slots, and those it gives back. */
function withinFreeSlots(
  leased: readonly WebhookDeliveryRow[],
  request: ClaimRequest,
): { kept: WebhookDeliveryRow[]; over: number[] } {
  const taken = new Map<string, number>();
  const kept: WebhookDeliveryRow[] = [];
  const over: number[] = [];
  for (const delivery of leased) {
    const already = taken.get(delivery.endpoint_id) ?? 0;
    if (already >= request.freeSlotsOf(delivery.endpoint_id)) {
      over.push(delivery.id);
      continue;
    }
    taken.set(delivery.endpoint_id, already + 1);
    kept.push(delivery);
  }
  return { kept, over };
}

function stateOf(settlement: Settlement) {
  switch (settlement.status) {
    case 'delivered':
      return { status: 'delivered', delivered_at: settlement.at };
    case 'failed':
      return { status: 'failed' };
    case 'pending':
      return { status: 'pending', next_attempt_at: settlement.nextAttemptAt };
  }
}

function requeued(now: EpochMs) {
  return { status: 'pending', next_attempt_at: now, attempt_count: 0, leased_until: null };
}

/**
 * The settlements in rounds that each name a delivery at most once, in order: a delivery resent
 * while an attempt was in flight can end twice in one group, under two leases.
 */
function roundsOfDistinctDeliveries(attempts: readonly SettlementOf[]): SettlementOf[][] {
  const rounds: SettlementOf[][] = [];
  const seen: Array<Set<number>> = [];
  for (const one of attempts) {
    let index = seen.findIndex((ids) => !ids.has(one.deliveryId));
    if (index === -1) {
      index = rounds.push([]) - 1;
      seen.push(new Set());
    }
    rounds[index]!.push(one);
    seen[index]!.add(one.deliveryId);
  }
  return rounds;
}

/** Numbers as numbers whatever the driver made of them (PostgreSQL's bigserial id, say). */
function deliveryRow(row: WebhookDeliveryRow): WebhookDeliveryRow {
  return {
    ...row,
    id: Number(row.id),
    sequence: Number(row.sequence),
    attempt_count: Number(row.attempt_count),
    occurred_at: Number(row.occurred_at),
    next_attempt_at: Number(row.next_attempt_at),
    created_at: Number(row.created_at),
    leased_until: nullableNumber(row.leased_until),
    last_attempt_at: nullableNumber(row.last_attempt_at),
    last_status_code: nullableNumber(row.last_status_code),
    delivered_at: nullableNumber(row.delivered_at),
  };
}

function attemptRow(row: WebhookAttemptRow): WebhookAttemptRow {
  return { ...row, id: Number(row.id), delivery_id: Number(row.delivery_id) };
}

function nullableNumber(value: unknown): number | null {
  return value === null || value === undefined ? null : Number(value);
}
