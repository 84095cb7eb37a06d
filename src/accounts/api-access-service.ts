import type { AuditLog } from '../audit/audit-log.js';
import type { Clock } from '../clock.js';
import type { AppRow } from '../db/rows.js';
import { NotFoundError, ValidationError } from '../errors.js';
import type { AuditContext } from './app-service.js';
import type { AppStore } from './app-store.js';
import type { ApiAccessCache } from './api-access-cache.js';
import type { ApiAccessStore } from './api-access-store.js';
import type { KnownApi } from './api-catalogue.js';

/** One API as an app's page and `app apis` show it. */
export interface AppApiAccess {
  api: string;
  title: string;
  enabled: boolean;
  /** Whether this is the API's default (the owner never changed it). */
  byDefault: boolean;
  enabledByDefault: boolean;
  /** When the owner last changed it; null for the default. */
  changed_at: number | null;
}

/** Who changes an app's APIs, as the audit trail records it (no user for the CLI). */
export interface ApiAccessActor extends AuditContext {
  userId?: string | null;
}

/**
 * Which APIs behind the GraphQL gateway each app may use (DESIGN §9): the console's switches and
 * `app apis|enable-api|disable-api` of the CLI. A change and its audit entry commit together,
 * with the app's row touched so that the accounts epoch moves and every process's ApiAccessCache
 * sees it (see there for when).
 */
export class ApiAccessService {
  private readonly known: ReadonlyMap<string, KnownApi>;

  constructor(
    private readonly store: ApiAccessStore,
    private readonly apps: AppStore,
    private readonly cache: ApiAccessCache,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
    readonly apis: readonly KnownApi[],
  ) {
    this.known = new Map(apis.map((api) => [api.name, api]));
  }

  /** Any app by its client id (the CLI); NotFoundError when there is none. */
  async appByClientId(clientId: string): Promise<AppRow> {
    const app = await this.apps.findByClientId(clientId);
    if (!app) throw new NotFoundError(`no app with client id ${clientId}`, 'client_id');
    return app;
  }

  /** Every registered API with whether `app` may use it, in registration order. */
  async listFor(app: AppRow): Promise<AppApiAccess[]> {
    const stored = new Map((await this.store.listForApp(app.id)).map((row) => [row.api, row]));
    return this.apis.map((api) => {
      const row = stored.get(api.name);
      return {
        api: api.name,
        title: api.title,
        enabled: row ? row.enabled : api.enabledByDefault,
        byDefault: !row,
        enabledByDefault: api.enabledByDefault,
        changed_at: row?.changed_at ?? null,
      };
    });
  }

  /**
   * Enables or disables `api` for `app`; whether anything changed (an API already in that state
   * is left as it is, unaudited). An unknown API name is a ValidationError naming the known ones.
   */
  async setEnabled(
    app: AppRow,
    api: string,
    enabled: boolean,
    actor: ApiAccessActor = {},
  ): Promise<boolean> {
    const known = this.known.get(api);
    if (!known) {
      throw new ValidationError(
        `no API named ${JSON.stringify(api)}; the APIs are ${this.apis.map((item) => item.name).join(', ')}`,
        'api',
      );
    }
    const now = this.clock.now();
    const changed = await this.apps.inTransaction(async (apps, tx) => {
      // Touching the app's row moves the accounts epoch (and locks the row: changes take turns).
      if (!(await apps.touchOwnedApp(app.id, app.owner_user_id, now))) {
        throw new NotFoundError(`no app with client id ${app.client_id}`, 'client_id');
      }
      const store = this.store.on(tx);
      const current = (await store.find(app.id, api))?.enabled ?? known.enabledByDefault;
      if (current === enabled) return false;
      await store.upsert({ app_id: app.id, api, enabled, changed_at: now });
      await this.audit.record(
        {
          type: enabled ? 'app.api_enabled' : 'app.api_disabled',
          actorUserId: actor.userId ?? null,
          appId: app.id,
          ip: actor.ip ?? null,
          requestId: actor.requestId ?? null,
          details: { api },
        },
        tx,
      );
      return true;
    });
    this.cache.forget();
    return changed;
  }
}
