import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { WebhookSettings } from '../config.js';
import type { EpochMs } from '../db/rows.js';
import { webhookAttemptDuration, webhookDeliveries } from '../observability/webhook-metrics.js';
import type { SecretBox } from '../security/secret-box.js';
import type {
  AttemptRecord,
  ClaimedDelivery,
  DeliveryStore,
  DisabledEndpoint,
} from './delivery-store.js';
import { postDelivery, type DeliveryResponse } from './delivery-request.js';
import type { EndpointAgents } from './endpoint-agents.js';
import { isWebhookEventType } from './event-types.js';
import { verdictOf, type Verdict } from './retry-policy.js';
import { signedDelivery } from './signed-delivery.js';

/**
 * A lease outlasts the attempt's timeout by this much, so that a process still recording its
 * attempt never sees another take the delivery.
 */
const LEASE_MARGIN_MS = 30_000;

/**
 * After an attempt ends, the worker waits this long before claiming for the freed slot, so that
 * attempts ending together share one claim rather than each making its own.
 */
const REFILL_DELAY_MS = 10;

/** Deliveries claimed in one transaction, at most. */
const CLAIM_BATCH = 50;

/** Delivered and failed deliveries older than the retention are deleted this often... */
const PURGE_INTERVAL_MS = 10 * 60_000;
/** ...this many at a time, for at most this many rounds each time. */
const PURGE_BATCH = 500;
const PURGE_ROUNDS = 20;

export interface DeliveryWorkerOptions {
  store: DeliveryStore;
  clock: Clock;
  logger: Logger;
  settings: WebhookSettings;
  /** The envelope's `source` (API_URL). */
  source: string;
  secrets: SecretBox;
  agents: EndpointAgents;
  /** Told of an endpoint this worker disabled because it failed for too long. */
  onDisabled(endpoint: DisabledEndpoint, reason: string): void;
  /** How long stopping waits for attempts in flight before it abandons them. */
  stopGraceMs: number;
}

/** Attempts written in one transaction, at most. */
const SETTLE_GROUP = 100;

interface PendingSettlement {
  claimed: ClaimedDelivery;
  attempt: AttemptRecord;
  verdict: Verdict;
  resolve(): void;
  reject(error: unknown): void;
}

interface InFlight {
  claimed: ClaimedDelivery;
  abort: AbortController;
  done: Promise<void>;
}

/**
 * Sends due deliveries: one worker per process, every process claiming from the same table, so
 * that they share the work through leases (DeliveryStore.claim). It polls every
 * WEBHOOK_POLL_MS and at once when woken (a local commit wrote outbox rows, a resend). At most
 * WEBHOOK_CONCURRENCY attempts are in flight, and WEBHOOK_CONCURRENCY_PER_ENDPOINT to any one
 * endpoint: an endpoint at its cap is not even read from, so a slow or dead endpoint holds its
 * own slots and nobody else's.
 */
export class DeliveryWorker {
  /** Attempts from their claim until their settlement is written. */
  private readonly inFlight = new Set<InFlight>();
  /** Of those, the ones whose request is still open: what WEBHOOK_CONCURRENCY bounds. */
  private sending = 0;
  private readonly perEndpoint = new Map<string, number>();
  private pumping: Promise<void> | undefined;
  private wokenWhilePumping = false;
  /** The last claim may have left due rows behind (it was full, or an endpoint was at its cap). */
  private backlog = false;
  private stopped = false;
  private pollTimer: NodeJS.Timeout | undefined;
  private purgeTimer: NodeJS.Timeout | undefined;
  private refillTimer: NodeJS.Timeout | undefined;
  private purging: Promise<unknown> = Promise.resolve();
  /** Attempts that ended and wait to be written, and the group being written. */
  private readonly settlements: PendingSettlement[] = [];
  private writingSettlements: Promise<void> | undefined;

  constructor(private readonly options: DeliveryWorkerOptions) {}

  start(): void {
    this.pollTimer = setInterval(() => this.wake(), this.options.settings.pollMs);
    this.pollTimer.unref();
    this.purgeTimer = setInterval(() => {
      this.purging = this.purgeNow().catch((error: unknown) =>
        this.options.logger.error({ err: error }, 'webhook delivery purge failed'),
      );
    }, PURGE_INTERVAL_MS);
    this.purgeTimer.unref();
    this.wake();
  }

  /** Looks for due deliveries now (coalesced with a look already under way). */
  wake(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.wokenWhilePumping = true;
      return;
    }
    this.pumping = this.pump().finally(() => {
      this.pumping = undefined;
    });
  }

  private refillSoon(): void {
    if (this.refillTimer || this.stopped) return;
    this.refillTimer = setTimeout(() => {
      this.refillTimer = undefined;
      this.wake();
    }, REFILL_DELAY_MS);
  }

  /** Deletes delivered and failed deliveries older than WEBHOOK_RETENTION_DAYS; how many. */
  async purgeNow(): Promise<number> {
    const before = this.options.clock.now() - this.options.settings.retentionMs;
    let purged = 0;
    for (let round = 0; round < PURGE_ROUNDS && !this.stopped; round++) {
      const deleted = await this.options.store.purge(before, PURGE_BATCH);
      purged += deleted;
      if (deleted < PURGE_BATCH) break;
    }
    return purged;
  }

  /**
   * Claims nothing more, lets attempts in flight finish for up to the grace period, then
   * abandons the others: their leases are given back, so another process (or this one after a
   * restart) sends them again with the same webhook-id.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.pollTimer);
    clearInterval(this.purgeTimer);
    clearTimeout(this.refillTimer);
    await this.pumping;
    const all = () => Promise.all([...this.inFlight].map((flight) => flight.done));
    let grace: NodeJS.Timeout | undefined;
    await Promise.race([
      all(),
      new Promise((resolve) => (grace = setTimeout(resolve, this.options.stopGraceMs))),
    ]);
    clearTimeout(grace);
    for (const flight of this.inFlight) flight.abort.abort();
    await all();
    await this.purging;
  }

  private async pump(): Promise<void> {
    do {
      this.wokenWhilePumping = false;
      let looked = false;
      while (!this.stopped) {
        const { concurrency } = this.options.settings;
        // An attempt that was answered frees its request slot at once, while its settlement
        // waits for the next group commit; at most `concurrency` of them wait.
        const free = Math.min(concurrency - this.sending, 2 * concurrency - this.inFlight.size);
        if (free <= 0) break;
        const limit = Math.min(free, CLAIM_BATCH);
        let claimed: ClaimedDelivery[];
        try {
          if (!looked && !(await this.options.store.anyDue(this.options.clock.now()))) break;
          looked = true;
          claimed = await this.claim(limit);
        } catch (error) {
          this.options.logger.error({ err: error }, 'could not claim webhook deliveries');
          return;
        }
        for (const delivery of claimed) this.launch(delivery);
        const cap = this.options.settings.concurrencyPerEndpoint;
        this.backlog =
          claimed.length === limit || [...this.perEndpoint.values()].some((n) => n >= cap);
        if (claimed.length < limit) break;
      }
    } while (this.wokenWhilePumping && !this.stopped);
  }

  private claim(limit: number): Promise<ClaimedDelivery[]> {
    const { settings, clock, store } = this.options;
    const cap = settings.concurrencyPerEndpoint;
    const busyEndpoints = [...this.perEndpoint].filter(([, n]) => n >= cap).map(([id]) => id);
    const now = clock.now();
    return store.claim({
      now,
      lease: now + settings.timeoutMs + LEASE_MARGIN_MS,
      limit,
      busyEndpoints,
      freeSlotsOf: (endpointId) => cap - (this.perEndpoint.get(endpointId) ?? 0),
    });
  }

  private launch(claimed: ClaimedDelivery): void {
    const { id, endpoint_id: endpointId } = claimed.delivery;
    this.perEndpoint.set(endpointId, (this.perEndpoint.get(endpointId) ?? 0) + 1);
    this.sending += 1;
    let answered = false;
    // The endpoint's slot is taken until its request ends, not until the attempt is written:
    // the receiver is done with it, and the lease keeps the delivery this process's meanwhile.
    const requestEnded = () => {
      if (answered) return;
      answered = true;
      this.sending -= 1;
      const left = (this.perEndpoint.get(endpointId) ?? 1) - 1;
      if (left > 0) this.perEndpoint.set(endpointId, left);
      else this.perEndpoint.delete(endpointId);
      // A slot is free: rows left behind for want of one may be claimed now.
      if (this.backlog) this.refillSoon();
    };
    const abort = new AbortController();
    const flight: InFlight = { claimed, abort, done: Promise.resolve() };
    flight.done = this.attempt(claimed, abort.signal, requestEnded)
      .catch((error: unknown) =>
        this.options.logger.error(
          { err: error, deliveryId: id },
          'webhook delivery attempt failed',
        ),
      )
      .finally(() => {
        requestEnded();
        this.inFlight.delete(flight);
        if (this.backlog) this.refillSoon();
      });
    this.inFlight.add(flight);
  }

  private async attempt(
    claimed: ClaimedDelivery,
    signal: AbortSignal,
    requestEnded: () => void,
  ): Promise<void> {
    const { clock, store } = this.options;
    if (!claimed.endpoint.enabled) {
      requestEnded();
      await this.settle(claimed, notSent(clock.now(), 'not sent: the endpoint is disabled'), {
        settlement: { status: 'failed' },
        outcome: 'failed',
        endpoint: 'untouched',
      });
      return;
    }
    const response = await this.send(claimed, signal);
    if (signal.aborted) {
      // Abandoned at shutdown: whatever happened, the delivery is due again for anyone.
      await store.release(claimed.delivery.id, claimed.lease);
      return;
    }
    const now = clock.now();
    webhookAttemptDuration.observe(response.latencyMs / 1000);
    const verdict = verdictOf(
      { statusCode: response.statusCode, retryAfter: response.retryAfter },
      claimed.delivery.attempt_count,
      now,
      this.options.settings,
    );
    // A 410 keeps the endpoint's slot until the endpoint is recorded as disabled, so that no
    // other delivery to it is claimed in between.
    if (verdict.endpoint !== 'gone') requestEnded();
    await this.settle(
      claimed,
      {
        attempted_at: now - response.latencyMs,
        status_code: response.statusCode,
        latency_ms: response.latencyMs,
        response_excerpt: response.excerpt,
        error: response.error,
      },
      verdict,
    );
  }

  private send(claimed: ClaimedDelivery, signal: AbortSignal): Promise<DeliveryResponse> {
    const { clock, source, secrets, agents, settings } = this.options;
    let request: ReturnType<typeof signedDelivery>;
    let url: URL;
    try {
      url = new URL(claimed.endpoint.url);
      request = signedDelivery(claimed, source, secrets, clock.now());
    } catch (error) {
      // Never the secret itself: the box's error names only its purpose.
      return Promise.resolve(failedBeforeSending(`not sent: ${(error as Error).message}`));
    }
    return postDelivery({
      url,
      ...request,
      agent: agents.agentFor(url),
      timeoutMs: settings.timeoutMs,
      signal,
    });
  }

  /**
   * Records an attempt, the delivery's new state and the endpoint's health. Attempts that end
   * while another group is being written wait for it and are then written together, in one
   * transaction (group commit): under load one commit serves many attempts, and the other
   * processes and the API wait for the write lock far less often.
   */
  private settle(claimed: ClaimedDelivery, attempt: AttemptRecord, verdict: Verdict) {
    return new Promise<void>((resolve, reject) => {
      this.settlements.push({ claimed, attempt, verdict, resolve, reject });
      this.writeSettlements();
    });
  }

  private writeSettlements(): void {
    if (this.writingSettlements || !this.settlements.length) return;
    const group = this.settlements.splice(0, SETTLE_GROUP);
    this.writingSettlements = this.writeGroup(group).finally(() => {
      this.writingSettlements = undefined;
      this.writeSettlements();
    });
  }

  private async writeGroup(group: PendingSettlement[]): Promise<void> {
    try {
      await this.writeSettled(group);
    } catch (error) {
      if (group.length === 1) {
        group[0]!.reject(error);
        return;
      }
      // One settlement that cannot be written must not cost the others theirs.
      for (const one of group) {
        await this.writeSettled([one]).catch((failure: unknown) => one.reject(failure));
      }
    }
  }

  /** One transaction for the group; each settles once it committed. */
  private async writeSettled(group: PendingSettlement[]): Promise<void> {
    const { store, settings } = this.options;
    const disabled = await store.inTransaction(async (store) => {
      await store.settleMany(
        group.map(({ claimed, attempt, verdict }) => ({
          deliveryId: claimed.delivery.id,
          lease: claimed.lease,
          attempt,
          settlement: verdict.settlement,
        })),
      );
      const found: Array<{ endpoint: DisabledEndpoint; reason: string }> = [];
      // The endpoint's health as the attempts leave it, in the order they ended. Answers are
      // told together, in one statement at the end, unless a failure of the same endpoint
      // comes after one: then its answers so far are told first.
      const answered = new Set<string>();
      for (const { claimed, attempt, verdict } of group) {
        const now = attempt.attempted_at + attempt.latency_ms;
        const endpointId = claimed.delivery.endpoint_id;
        if (verdict.endpoint === 'answered') {
          answered.add(endpointId);
          continue;
        }
        if (verdict.endpoint !== 'untouched' && answered.delete(endpointId)) {
          await store.endpointsAnswered([endpointId]);
        }
        switch (verdict.endpoint) {
          case 'untouched':
            break;
          case 'gone':
            await store.endpointGone(endpointId, now, goneReason(now));
            break;
          case 'failing': {
            let reason = '';
            const endpoint = await store.endpointFailed(
              endpointId,
              now,
              now - settings.disableAfterMs,
              (since) => (reason = failingReason(since, now)),
            );
            if (endpoint) found.push({ endpoint, reason });
            break;
          }
        }
      }
      if (answered.size) await store.endpointsAnswered([...answered]);
      return found;
    });
    for (const { claimed, verdict, resolve } of group) {
      const type = isWebhookEventType(claimed.delivery.type) ? claimed.delivery.type : 'other';
      webhookDeliveries.inc({ type, outcome: verdict.outcome });
      resolve();
    }
    for (const { endpoint, reason } of disabled) this.options.onDisabled(endpoint, reason);
  }
}

function notSent(now: EpochMs, error: string): AttemptRecord {
  return {
    attempted_at: now,
    status_code: null,
    latency_ms: 0,
    response_excerpt: null,
    error,
  };
}

function failedBeforeSending(error: string): DeliveryResponse {
  return { statusCode: null, latencyMs: 0, excerpt: null, error };
}

function goneReason(now: EpochMs): string {
  return `Disabled on ${iso(now)}: the endpoint answered 410 Gone.`;
}

function failingReason(since: EpochMs, now: EpochMs): string {
  return `Disabled on ${iso(now)}: every delivery attempt failed since ${iso(since)}.`;
}

function iso(at: EpochMs): string {
  return new Date(at).toISOString();
}
