import type { SharedDependencies } from '../shared-dependencies.js';
import { BudgetSettings } from './budget-settings.js';
import { BudgetStore } from './budget-store.js';
import { LeasedBudgets, type Admission } from './leased-budgets.js';

/** The rolling cost budget per client of the GraphQL gateway (DESIGN §9). */
export interface CostBudgets {
  /**
   * What the gateway asks for every request that costs anything: charges the cost to the app's
   * budget, or says why not. Undefined when GRAPHQL_COST_BUDGETS is off.
   */
  admission?: {
    admit(appId: string, cost: number): Admission | Promise<Admission>;
    readonly windowSeconds: number;
  };
  /** Each app's own budget: what the console and the CLI show and change. */
  settings: BudgetSettings;
  /** Gives back what this process leased and did not use (at shutdown). */
  close(): Promise<void>;
}

export function composeCostBudgets(shared: SharedDependencies): CostBudgets {
  const { config, clock, logger, audit, db } = shared;
  const store = new BudgetStore(db);
  const leased = config.costBudgets.enabled
    ? new LeasedBudgets(store, config.costBudgets, clock, logger)
    : undefined;
  return {
    ...(leased && { admission: leased }),
    settings: new BudgetSettings(store, config.costBudgets, audit, clock),
    close: async () => leased?.close(),
  };
}
