import { randomBytes, randomUUID } from 'node:crypto';
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

const MAX_APP_NAME_LENGTH = 200;

/** Rules for partner apps: registration, credentials and redirect URIs. */
export class AppService {
  constructor(
    private readonly apps: AppStore,
    private readonly accounts: AccountStore,
    private readonly clock: Clock,
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
}
