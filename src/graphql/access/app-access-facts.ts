/**
 * What the gateway asks of whoever knows which app may use which API (the accounts capability's
 * ApiAccessCache, handed in by the composition root). Both answers come from facts held in
 * memory while they are current, so that an allowed request runs no statement for them.
 */
export interface AppAccessFacts {
  /**
   * Whether the app may use `api`, from facts at least as recent as the accounts epoch `asOf`
   * (read with the caller's token when it was verified; undefined: whatever is held).
   */
  isEnabled(appId: string, api: string, asOf?: number): boolean | Promise<boolean>;
  /**
   * The same, as the database says after this call: asked before a field is refused, so that an
   * API enabled in any process counts on the very next request.
   */
  isEnabledNow(appId: string, api: string): Promise<boolean>;
}
