import type { Logger } from 'pino';
import type { Clock } from '../clock.js';
import type { CostBudgetSettings } from '../config.js';
import type { Admission, BudgetStatus, CostAdmission } from '../graphql/api.js';
import type { BudgetStore, Charge, LeaseGrant } from './budget-store.js';

export type { Admission, BudgetStatus };

/**
 * How long a process may admit from one lease. It makes windows longer by as much (see
 * LeasedBudgets), so it is short; it is also how long an app's new budget may take to apply.
 */
export const LEASE_MS = 1000;

/** The least a process leases at once, so that small requests do not lease one by one. */
const MIN_LEASE = 100;

/**
 * Clients this process remembers before it forgets the idle ones (no lease, nothing waiting):
 * what it keeps of one is only how much to lease next, so forgetting costs one smaller lease.
 */
const MOST_CLIENTS_HELD = 10_000;

interface Lease {
  id: number;
  expiresAt: number;
  amount: number;
  used: number;
  timer?: NodeJS.Timeout;
}

interface Waiter {
  cost: number;
  resolve(admission: Admission): void;
  reject(error: unknown): void;
}

/** What this process knows of one client. */
interface Client {
  lease?: Lease;
  budget: number;
  /** The window as the last lease request saw it. */
  charges: Charge[];
  waiting: Waiter[];
  leasing: boolean;
  /** Units admitted per lease lately: how much to ask for next. */
  pace: number;
}

/**
 * The rolling cost budget of each client, shared by every process on the database, without a
 * database round trip per request: each process leases budget for a client from the database
 * (BudgetStore) and admits requests against its lease in memory; only when a lease is used up
 * or runs out (after LEASE_MS) does it ask for another, for all the requests that arrived
 * meanwhile at once.
 *
 * Why no 60 s window ever admits more than the budget: a lease is granted at `g` only if the
 * leases granted in the last window + LEASE_MS add up to no more than the budget with it, and
 * it is used only before `g + LEASE_MS`. Every request admitted in a window [a, a + W) came
 * from a lease granted in (a − LEASE_MS, a + W); when the last of those was granted, all the
 * others were within window + LEASE_MS of it and counted, each at its full amount or at what it
 * admitted once settled (settling only lowers an amount, to what was really admitted). So the
 * budget applies over W + LEASE_MS, a second more than the window: a charge comes back to the
 * client up to a second later than the window says, never earlier.
 */
export class LeasedBudgets implements CostAdmission {
  private readonly clients = new Map<string, Client>();
  private readonly windowMs: number;
  private readonly spanMs: number;

  constructor(
    private readonly store: BudgetStore,
    private readonly settings: CostBudgetSettings,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    this.windowMs = settings.windowMs;
    this.spanMs = settings.windowMs + LEASE_MS;
  }

  get windowSeconds(): number {
    return this.windowMs / 1000;
  }

  /** Charges `cost` to the app's budget, or says why not; synchronous while a lease covers it. */
  admit(appId: string, cost: number): Admission | Promise<Admission> {
    const client = this.client(appId);
    const now = this.clock.now();
    const lease = client.lease;
    if (cost === 0) return { admitted: true, status: this.status(client, now) };
    if (lease && !client.waiting.length && now < lease.expiresAt) {
      if (lease.used + cost <= lease.amount) {
        lease.used += cost;
        return { admitted: true, status: this.status(client, now) };
      }
    }
    return new Promise<Admission>((resolve, reject) => {
      client.waiting.push({ cost, resolve, reject });
      if (!client.leasing) void this.lease(appId, client);
    });
  }

  /** Settles every lease this process holds (at shutdown). */
  async close(): Promise<void> {
    const settling: Array<Promise<void>> = [];
    for (const client of this.clients.values()) {
      const lease = client.lease;
      if (!lease) continue;
      clearTimeout(lease.timer);
      client.lease = undefined;
      settling.push(this.store.settle(lease.id, lease.used));
    }
    await Promise.allSettled(settling);
  }

  private client(appId: string): Client {
    let client = this.clients.get(appId);
    if (!client) {
      if (this.clients.size >= MOST_CLIENTS_HELD) this.forgetIdleClients();
      client = {
        budget: this.settings.defaultUnits,
        charges: [],
        waiting: [],
        leasing: false,
        pace: MIN_LEASE,
      };
      this.clients.set(appId, client);
    }
    return client;
  }

  private forgetIdleClients(): void {
    for (const [appId, client] of this.clients) {
      if (!client.lease && !client.leasing && !client.waiting.length) this.clients.delete(appId);
    }
  }

  /** Leases for the requests waiting, admits those that fit, refuses the others; repeats. */
  private async lease(appId: string, client: Client): Promise<void> {
    client.leasing = true;
    try {
      while (client.waiting.length) {
        const waiting = client.waiting;
        client.waiting = [];
        await this.leaseFor(appId, client, waiting);
      }
    } finally {
      client.leasing = false;
    }
  }

  private async leaseFor(appId: string, client: Client, waiting: Waiter[]): Promise<void> {
    const now = this.clock.now();
    const old = client.lease;
    // A lease still running keeps serving the first requests it has room for.
    if (old && now < old.expiresAt) {
      while (waiting.length && old.used + waiting[0]!.cost <= old.amount) {
        const waiter = waiting.shift()!;
        old.used += waiter.cost;
        waiter.resolve({ admitted: true, status: this.status(client, now) });
      }
      if (!waiting.length) return;
    }
    const costs = waiting.reduce((sum, waiter) => sum + waiter.cost, 0);
    if (old) {
      clearTimeout(old.timer);
      client.pace = Math.max(MIN_LEASE, old.used);
    }
    client.lease = undefined;
    let grant: LeaseGrant;
    try {
      grant = await this.store.grantLease({
        appId,
        now,
        spanMs: this.spanMs,
        need: waiting[0]!.cost,
        want: costs + Math.max(client.pace * 2, MIN_LEASE),
        defaultBudget: this.settings.defaultUnits,
        ...(old && { settle: { leaseId: old.id, used: old.used } }),
      });
    } catch (error) {
      for (const waiter of waiting) waiter.reject(error);
      return;
    }
    client.budget = grant.budget;
    client.charges = grant.charges;
    if (grant.leaseId !== undefined) {
      const lease: Lease = {
        id: grant.leaseId,
        expiresAt: now + LEASE_MS,
        amount: grant.granted,
        used: 0,
      };
      lease.timer = setTimeout(() => this.expire(client, lease), LEASE_MS);
      lease.timer.unref();
      client.lease = lease;
    }
    const lease = client.lease;
    for (const waiter of waiting) {
      if (lease && lease.used + waiter.cost <= lease.amount) {
        lease.used += waiter.cost;
        waiter.resolve({ admitted: true, status: this.status(client, now) });
      } else if (waiter.cost > grant.budget) {
        waiter.resolve({ admitted: false, status: this.status(client, now), exceedsBudget: true });
      } else {
        waiter.resolve({
          admitted: false,
          status: this.status(client, now),
          retryAfterSeconds: this.retryAfterSeconds(client, waiter.cost, now),
        });
      }
    }
  }

  /** A lease that ran out while nobody needed another: what it did not admit goes back. */
  private expire(client: Client, lease: Lease): void {
    if (client.lease !== lease || client.leasing) return;
    client.lease = undefined;
    client.pace = Math.max(MIN_LEASE, lease.used);
    this.store.settle(lease.id, lease.used).catch((error: unknown) => {
      // Harmless: the lease keeps counting at its full amount until it leaves the window.
      this.logger.warn({ err: error }, 'could not settle a cost budget lease');
    });
  }

  private status(client: Client, now: number): BudgetStatus {
    const charged = this.chargedAt(client.charges, now);
    const lease = client.lease && now < client.lease.expiresAt ? client.lease : undefined;
    // This process's lease counts in the window whole; what it has not admitted is still there.
    const unused = lease ? lease.amount - lease.used : 0;
    const last = client.charges.at(-1);
    return {
      limit: client.budget,
      remaining: Math.max(0, client.budget - charged + unused),
      resetSeconds: last ? Math.max(0, Math.ceil((last.at + this.spanMs - now) / 1000)) : 0,
      windowSeconds: this.windowSeconds,
    };
  }

  private chargedAt(charges: readonly Charge[], now: number): number {
    let total = 0;
    for (const charge of charges) if (charge.at > now - this.spanMs) total += charge.amount;
    return total;
  }

  /** Seconds until enough of what the window holds has left it for `cost` to fit. */
  private retryAfterSeconds(client: Client, cost: number, now: number): number {
    let charged = this.chargedAt(client.charges, now);
    let at = now;
    for (const charge of client.charges) {
      if (client.budget - charged >= cost) break;
      if (charge.at <= now - this.spanMs) continue;
      charged -= charge.amount;
      at = charge.at + this.spanMs;
    }
    return Math.max(1, Math.ceil((at - now) / 1000));
  }
}
