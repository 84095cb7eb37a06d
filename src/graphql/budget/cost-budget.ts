/**
 * What the gateway asks of the rolling cost budget per client (DESIGN §9). The gateway knows no
 * capability: the composition root hands it src/cost-budgets' admission, which has this shape.
 */

/** A client's budget as one answer reports it. */
export interface BudgetStatus {
  /** Units per window. */
  limit: number;
  /** Units the client may still spend now. */
  remaining: number;
  /** Seconds until everything charged so far has left the window. */
  resetSeconds: number;
  windowSeconds: number;
}

export type Admission =
  | { admitted: true; status: BudgetStatus }
  | { admitted: false; status: BudgetStatus; retryAfterSeconds: number }
  | { admitted: false; status: BudgetStatus; exceedsBudget: true };

export interface CostAdmission {
  /** Charges `cost` to the app's budget, or says why not. */
  admit(appId: string, cost: number): Admission | Promise<Admission>;
}
