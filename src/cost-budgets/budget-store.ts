import { Store } from '../db/store.js';

/** Cost charged to a client at one instant: a lease, as large as it is recorded now. */
export interface Charge {
  at: number;
  amount: number;
}

/** What one lease request got: a lease (or none) and the client's window as it stands after it. */
export interface LeaseGrant {
  /** The lease's row, to settle it once it has run out; undefined when nothing was granted. */
  leaseId?: number;
  /** Units granted: between `need` and `want`, or 0. */
  granted: number;
  /** The client's budget per window: its own, else the default. */
  budget: number;
  /** The charges still in the window, oldest first, the new lease included. */
  charges: Charge[];
}

export interface LeaseRequest {
  appId: string;
  now: number;
  /** How far back charges count: the window plus the longest life of a lease. */
  spanMs: number;
  /** The least worth granting (the cost of the request waiting for it). */
  need: number;
  /** As much as this process expects to admit before the lease runs out. */
  want: number;
  defaultBudget: number;
  /** A lease of this process to reduce first to what it admitted (it is no longer used). */
  settle?: { leaseId: number; used: number };
}

/** The most of a budget one lease takes beyond its first request: a quarter. */
const LEASE_SHARE = 4;

const LEASES = 'cost_budget_leases';
const CLIENTS = 'cost_budget_clients';
const BUDGETS = 'app_cost_budgets';

/**
 * SQL of the rolling cost budgets (migration 0022): leases are granted one at a time per client
 * (each grant locks the client's row in cost_budget_clients), and only while the leases in the
 * span add up to no more than the budget, so whatever the processes sharing the database admit
 * from them stays within it (leased-budgets.ts says why that holds for every window).
 */
export class BudgetStore extends Store {
  grantLease(request: LeaseRequest): Promise<LeaseGrant> {
    return this.inTransaction((store) => store.grantLeaseHere(request));
  }

  private async grantLeaseHere(request: LeaseRequest): Promise<LeaseGrant> {
    const { appId, now, spanMs, need, want, settle } = request;
    if (settle) await this.settleHere(settle.leaseId, settle.used);
    await this.db(CLIENTS).insert({ app_id: appId, purged_at: now }).onConflict('app_id').ignore();
    const client = await this.forUpdate(
      this.db(CLIENTS).where({ app_id: appId }).first<{ purged_at: number | string }>('purged_at'),
    );
    const own = await this.db(BUDGETS).where({ app_id: appId }).first<{ units: number }>('units');
    const budget = own?.units ?? request.defaultBudget;
    const since = now - spanMs;
    const rows: Array<{ granted_at: number | string; amount: number }> = await this.db(LEASES)
      .where({ app_id: appId })
      .andWhere('granted_at', '>', since)
      .orderBy([{ column: 'granted_at' }, { column: 'id' }])
      .select('granted_at', 'amount');
    const charges = rows.map((row) => ({ at: Number(row.granted_at), amount: row.amount }));
    const used = charges.reduce((sum, charge) => sum + charge.amount, 0);
    const available = budget - used;
    // No process reserves more than a share of the budget beyond what it needs now, so that the
    // others sharing the client still get leases while its own is running.
    const share = Math.max(need, Math.min(want, Math.floor(budget / LEASE_SHARE)));
    const granted = available >= need && need <= budget ? Math.min(available, share) : 0;
    let leaseId: number | undefined;
    if (granted > 0) {
      const inserted: Array<{ id: number | string }> = await this.db(LEASES)
        .insert({ app_id: appId, granted_at: now, amount: granted })
        .returning('id');
      leaseId = Number(inserted[0]!.id);
      charges.push({ at: now, amount: granted });
    }
    // Leases that left the span are of no use to anyone; dropped now and then, by whoever locks.
    if (Number(client?.purged_at ?? now) <= since) {
      await this.db(LEASES).where({ app_id: appId }).andWhere('granted_at', '<=', since).delete();
      await this.db(CLIENTS).where({ app_id: appId }).update({ purged_at: now });
    }
    return { ...(leaseId !== undefined && { leaseId }), granted, budget, charges };
  }

  /** Reduces a lease that has run out to what was admitted from it. */
  async settle(leaseId: number, used: number): Promise<void> {
    await this.settleHere(leaseId, used);
  }

  private async settleHere(leaseId: number, used: number): Promise<void> {
    await this.db(LEASES).where({ id: leaseId }).andWhere('amount', '>', used).update({
      amount: used,
    });
  }

  /** The app's own budget per window; undefined when it has none (the default applies). */
  async ownBudget(appId: string): Promise<number | undefined> {
    const row = await this.db(BUDGETS).where({ app_id: appId }).first<{ units: number }>('units');
    return row?.units;
  }

  /** Sets the app's own budget, or with null removes it. */
  async setOwnBudget(appId: string, units: number | null, now: number): Promise<void> {
    if (units === null) {
      await this.db(BUDGETS).where({ app_id: appId }).delete();
      return;
    }
    await this.db(BUDGETS)
      .insert({ app_id: appId, units, updated_at: now })
      .onConflict('app_id')
      .merge({ units, updated_at: now });
  }
}
