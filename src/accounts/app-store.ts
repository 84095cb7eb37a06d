import type { AppRedirectUriRow, AppRow } from '../db/rows.js';
import { Store } from '../db/store.js';

export interface AppWithRedirectUris extends AppRow {
  redirect_uris: string[];
  owner_email: string;
}

/** SQL for partner apps and their registered redirect URIs. */
/** What the owner edits on an app's Overview. */
export type EditableAppDetails = Pick<
  AppRow,
  | 'name'
  | 'description'
  | 'grant_types'
  | 'developer_name'
  | 'homepage_url'
  | 'privacy_policy_url'
  | 'logo_url'
>;

/** Written once rather than built per call by the query builder (findByClientId). */
const APP_BY_CLIENT_ID_SQL = 'select * from apps where client_id = ? limit 1';

export class AppStore extends Store {
  async insertApp(app: AppRow): Promise<void> {
    await this.db('apps').insert(app);
  }

  async insertRedirectUris(rows: Array<Omit<AppRedirectUriRow, 'id'>>): Promise<void> {
    if (rows.length) await this.db('app_redirect_uris').insert(rows);
  }

  async findById(id: string): Promise<AppRow | undefined> {
    return this.db<AppRow>('apps').where({ id }).first();
  }

  /** Read on every token request whose client is not taken from the cache. */
  async findByClientId(clientId: string): Promise<AppRow | undefined> {
    const [row] = await this.dialect.select(this.db, APP_BY_CLIENT_ID_SQL, [clientId]);
    return row as AppRow | undefined;
  }

  /**
   * Replaces the secret digest of one confidential app, only when `ownerUserId` owns it. Returns
   * whether a row changed. The token endpoint reads the digest on every request, so the previous
   * secret stops working as soon as this commits.
   */
  async replaceSecretHash(
    appId: string,
    ownerUserId: string,
    secretHash: string,
    now: number,
    sealedSecret: string | null = null,
  ): Promise<boolean> {
    const changed = await this.db('apps')
      .where({ id: appId, owner_user_id: ownerUserId, client_type: 'confidential' })
      .update({
        client_secret_hash: secretHash,
        client_secret_sealed: sealedSecret,
        secret_updated_at: now,
        updated_at: now,
      });
    return changed === 1;
  }

  /**
   * Marks one app, only when `ownerUserId` owns it, as changed now and returns whether it did.
   * Inside a transaction the update also locks the row, so edits of one app take turns.
   */
  async touchOwnedApp(appId: string, ownerUserId: string, now: number): Promise<boolean> {
    const changed = await this.db('apps')
      .where({ id: appId, owner_user_id: ownerUserId })
      .update({ updated_at: now });
    return changed === 1;
  }

  /** Sets what the owner edits on the Overview (name, grants, publisher…); whether it did. */
  async updateDetails(
    appId: string,
    ownerUserId: string,
    details: EditableAppDetails,
    now: number,
  ): Promise<boolean> {
    const changed = await this.db('apps')
      .where({ id: appId, owner_user_id: ownerUserId })
      .update({ ...details, updated_at: now });
    return changed === 1;
  }

  /** Replaces the whole ordered list of an app's redirect URIs; run it in a transaction. */
  async replaceRedirectUris(appId: string, uris: string[], now: number): Promise<void> {
    await this.db('app_redirect_uris').where({ app_id: appId }).delete();
    await this.insertRedirectUris(
      uris.map((uri, position) => ({ app_id: appId, uri, position, created_at: now })),
    );
  }

  /**
   * Deletes an app, only when `ownerUserId` owns it; returns whether it did. Foreign keys remove
   * its redirect URIs, codes, tokens, consents and interviews with it.
   */
  async deleteOwnedApp(appId: string, ownerUserId: string): Promise<boolean> {
    const deleted = await this.db('apps').where({ id: appId, owner_user_id: ownerUserId }).delete();
    return deleted === 1;
  }

  async listRedirectUris(appId: string): Promise<string[]> {
    const rows: Array<{ uri: string }> = await this.db('app_redirect_uris')
      .where({ app_id: appId })
      .orderBy('position')
      .select('uri');
    return rows.map((row) => row.uri);
  }

  /** Every app with its owner's email and redirect URIs, in creation order; two queries in all. */
  async listApps(filter: { ownerUserId?: string } = {}): Promise<AppWithRedirectUris[]> {
    const query = this.db('apps as a')
      .join('users as u', 'u.id', 'a.owner_user_id')
      .orderBy([{ column: 'a.created_at' }, { column: 'a.id' }])
      .select('a.*', 'u.email as owner_email');
    if (filter.ownerUserId) query.where('a.owner_user_id', filter.ownerUserId);
    const apps: Array<AppRow & { owner_email: string }> = await query;
    if (!apps.length) return [];
    const uris: AppRedirectUriRow[] = await this.db('app_redirect_uris')
      .whereIn(
        'app_id',
        apps.map((app) => app.id),
      )
      .orderBy(['app_id', 'position']);
    return apps.map((app) => ({
      ...app,
      redirect_uris: uris.filter((row) => row.app_id === app.id).map((row) => row.uri),
    }));
  }
}
