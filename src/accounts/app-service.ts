import { randomBytes, randomUUID } from 'node:crypto';
import type { AuditLog } from '../audit/audit-log.js';
import type { Clock } from '../clock.js';
import type { AppRow, ClientType } from '../db/rows.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { randomToken, sha256Hex } from '../security/random.js';
import type { AccountStore } from './account-store.js';
import type { AppStore, AppWithRedirectUris } from './app-store.js';
import { validateRedirectUris } from './redirect-uris.js';

export interface CreatedApp {
  app: AppWithRedirectUris;
  /** Shown once at creation; only its SHA-256 digest is stored. Null for public clients. */
  clientSecret: string | null;
}

export interface RotatedSecret {
  app: AppRow;
  /** The new secret, for its one display; only its SHA-256 digest is stored. */
  clientSecret: string;
}

const MAX_APP_NAME_LENGTH = 200;

/** Rules for partner apps: registration, credentials and redirect URIs. */
export class AppService {
  constructor(
    private readonly apps: AppStore,
    private readonly accounts: AccountStore,
    private readonly clock: Clock,
    /** Where credential changes are recorded; rotateSecret refuses to run without it. */
    private readonly audit?: AuditLog,
  ) {}

  async createApp(input: {
    ownerEmail: string;
    name: string;
    redirectUris?: string[];
    public?: boolean;
  }): Promise<CreatedApp> {
    const name = input.name.trim();
    if (!name) throw new ValidationError('name must not be empty', 'name');
    if (name.length > MAX_APP_NAME_LENGTH) {
      throw new ValidationError(`name must be at most ${MAX_APP_NAME_LENGTH} characters`, 'name');
    }
    const redirectUris = validateRedirectUris(input.redirectUris ?? []);
    const owner = await this.accounts.findUserByEmail(input.ownerEmail.trim());
    if (!owner) throw new NotFoundError(`no user with email ${input.ownerEmail.trim()}`, 'owner');

    const clientType: ClientType = input.public ? 'public' : 'confidential';
    const clientSecret = clientType === 'confidential' ? randomToken(32) : null;
    const now = this.clock.now();
    const app: AppRow = {
      id: randomUUID(),
      client_id: randomBytes(16).toString('hex'),
      owner_user_id: owner.id,
      name,
      client_type: clientType,
      client_secret_hash: clientSecret && sha256Hex(clientSecret),
      secret_updated_at: clientSecret ? now : null,
      created_at: now,
      updated_at: now,
    };
    await this.apps.inTransaction(async (store) => {
      await store.insertApp(app);
      await store.insertRedirectUris(
        redirectUris.map((uri, position) => ({ app_id: app.id, uri, position, created_at: now })),
      );
    });
    return {
      app: { ...app, owner_email: owner.email, redirect_uris: redirectUris },
      clientSecret,
    };
  }

  listApps(): Promise<AppWithRedirectUris[]> {
    return this.apps.listApps();
  }

  /**
   * Gives a confidential app a new client secret; the old one stops working at once. Another
   * user's app reads as a missing one. The change and its audit entry commit together.
   */
  async rotateSecret(
    ownerUserId: string,
    clientId: string,
    context: { ip?: string | null } = {},
  ): Promise<RotatedSecret> {
    const audit = this.audit;
    if (!audit) throw new Error('AppService.rotateSecret needs an AuditLog');
    const app = await this.apps.findByClientId(clientId);
    if (!app || app.owner_user_id !== ownerUserId) {
      throw new NotFoundError(`no app with client id ${clientId}`, 'client_id');
    }
    if (app.client_type !== 'confidential') {
      throw new ValidationError('a public app has no client secret to rotate', 'client_id');
    }
    const clientSecret = randomToken(32);
    const now = this.clock.now();
    const rotated = await this.apps.inTransaction(async (store, trx) => {
      const changed = await store.replaceSecretHash(
        app.id,
        ownerUserId,
        sha256Hex(clientSecret),
        now,
      );
      if (!changed) return false;
      await audit.record(
        {
          type: 'app.secret_rotated',
          actorUserId: ownerUserId,
          appId: app.id,
          ip: context.ip ?? null,
        },
        trx,
      );
      return true;
    });
    // Deleted (or changed hands) between the read and the update.
    if (!rotated) throw new NotFoundError(`no app with client id ${clientId}`, 'client_id');
    return {
      app: {
        ...app,
        client_secret_hash: sha256Hex(clientSecret),
        secret_updated_at: now,
        updated_at: now,
      },
      clientSecret,
    };
  }
}
