import type { AuditLog } from '../audit/audit-log.js';
import type { Clock } from '../clock.js';
import type { CostBudgetSettings } from '../config.js';
import { ValidationError } from '../errors.js';
import type { BudgetStore } from './budget-store.js';

/** The most cost units an app's own budget may allow per window. */
export const MAX_BUDGET_UNITS = 2_000_000_000;

/** An app's budget as the console and the CLI show it. */
export interface AppBudget {
  /** The app's own budget; undefined when the default applies. */
  own?: number;
  /** What applies: its own, else the default. */
  units: number;
  defaultUnits: number;
  windowSeconds: number;
}

/** Who changes a budget, as the audit entry records it (nothing for the CLI). */
export interface BudgetChangeOrigin {
  actorUserId?: string | null;
  ip?: string | null;
  requestId?: string | null;
}

/**
 * Each app's own cost budget per window (GRAPHQL_COST_BUDGET otherwise), set by its owner in the
 * console or by an operator with `cli app budget`; every change is audited. A change applies in
 * every process from its next lease, within a second (leased-budgets.ts).
 */
export class BudgetSettings {
  constructor(
    private readonly store: BudgetStore,
    private readonly settings: CostBudgetSettings,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
  ) {}

  async budgetOf(appId: string): Promise<AppBudget> {
    const own = await this.store.ownBudget(appId);
    return {
      ...(own !== undefined && { own }),
      units: own ?? this.settings.defaultUnits,
      defaultUnits: this.settings.defaultUnits,
      windowSeconds: this.settings.windowMs / 1000,
    };
  }

  /** Sets the app's own budget, or with null goes back to the default. */
  async setBudget(
    appId: string,
    units: number | null,
    origin: BudgetChangeOrigin = {},
  ): Promise<AppBudget> {
    if (units !== null && (!Number.isInteger(units) || units < 1 || units > MAX_BUDGET_UNITS)) {
      throw new ValidationError(
        `the budget must be a whole number of cost units from 1 to ${MAX_BUDGET_UNITS}`,
        'budget',
      );
    }
    await this.store.inTransaction(async (store, tx) => {
      const previous = await store.ownBudget(appId);
      await store.setOwnBudget(appId, units, this.clock.now());
      await this.audit.record(
        {
          type: 'app.cost_budget_changed',
          appId,
          actorUserId: origin.actorUserId ?? null,
          ip: origin.ip ?? null,
          requestId: origin.requestId ?? null,
          details: {
            units,
            previous: previous ?? null,
            windowSeconds: this.settings.windowMs / 1000,
          },
        },
        tx,
      );
    });
    return this.budgetOf(appId);
  }
}

/** Parses a budget as typed in a form or on the command line: units, or `default`. */
export function parseBudget(text: string): number | null {
  const trimmed = text.trim().replaceAll(/[,_\s]/g, '');
  if (trimmed === '' || trimmed.toLowerCase() === 'default') return null;
  if (!/^\d+$/.test(trimmed)) {
    throw new ValidationError(
      `the budget must be a whole number of cost units, or "default"; got ${JSON.stringify(text.slice(0, 40))}`,
      'budget',
    );
  }
  return Number(trimmed);
}
