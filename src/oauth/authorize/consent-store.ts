import type { ConsentRow } from '../../db/rows.js';
import { Store } from '../../db/store.js';

/**
 * SQL for remembered consents: one row per user, app and scope set (spelled by `scopeSet()`), so
 * a request for exactly the same scopes skips the consent page. Exported for the token endpoint
 * and the console, which may need to check or list what a user has granted.
 */
export class ConsentStore extends Store {
  async has(userId: string, appId: string, scopeSet: string): Promise<boolean> {
    const row = await this.db('consents')
      .where({ user_id: userId, app_id: appId, scope_set: scopeSet })
      .first('id');
    return row !== undefined;
  }

  /** Remembers a consent; granting the same scope set again is not an error. */
  async remember(consent: ConsentRow): Promise<void> {
    await this.db('consents')
      .insert(consent)
      .onConflict(['user_id', 'app_id', 'scope_set'])
      .ignore();
  }
}
