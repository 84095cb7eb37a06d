import { randomBytes, randomUUID } from 'node:crypto';
import type { AuditEventType, AuditLog } from '../audit/audit-log.js';
import { validateClientId } from '../../generated/validators.cjs';
import type { Clock } from '../clock.js';
import type { AppRow, AuditEventRow } from '../db/rows.js';
import type { ClientType } from './vocabulary.js';
import { InvalidFields, NotFoundError, ValidationError, type FieldProblem } from '../errors.js';
import { verifyPassword } from '../security/passwords.js';
import { randomToken, sha256Hex } from '../security/random.js';
import { multiLineTextProblem, singleLineTextProblem } from '../security/text-safety.js';
import type { SecretBox } from '../security/secret-box.js';
import type { AccountStore } from './account-store.js';
import { checkAppPublisher, type AppPublisherInput } from './app-publisher.js';
import type { AppStore, AppWithRedirectUris, EditableAppDetails } from './app-store.js';
import { allowsGrant, normalizeGrantTypes } from './grant-types.js';
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

/** The request behind a change, as its audit entry records it (both absent for the CLI). */
export interface AuditContext {
  ip?: string | null;
  requestId?: string | null;
}

/** What the owner of an app may change on its Overview tab. */
export interface AppDetailsInput extends AppPublisherInput {
  name: string;
  description?: string | null;
  grantTypes: readonly string[];
}

/** A redirect URI edit: the list it leaves, and how the audit trail records it. */
interface RedirectUriChange {
  next: string[];
  type: AuditEventType;
  details: Record<string, unknown>;
}

const MAX_APP_NAME_LENGTH = 200;
const MAX_DESCRIPTION_LENGTH = 2000;

/** Rules for partner apps: registration, credentials and redirect URIs. */
export class AppService {
  constructor(
    private readonly apps: AppStore,
    private readonly accounts: AccountStore,
    private readonly clock: Clock,
    /** Where credential changes and deletions are recorded. */
    private readonly audit: AuditLog,
    /** Seals a copy of each new secret for the owner's password-gated reveal. */
    private readonly secretBox: SecretBox,
    /**
     * The grant types the token endpoint knows (the OAuth grant registry's names), in the order
     * apps' choices are shown and stored.
     */
    readonly grantTypes: readonly string[],
  ) {}

  async createApp(input: {
    ownerEmail: string;
    name: string;
    redirectUris?: string[];
    public?: boolean;
    description?: string | null;
    /** Every known grant when left out (stored explicitly, never left to a column default). */
    grantTypes?: readonly string[];
    /** Optional publisher details shown on the consent page. */
    publisher?: AppPublisherInput;
    /** The request that registers it, for the audit trail; none from the CLI. */
    context?: AuditContext;
  }): Promise<CreatedApp> {
    const name = appName(input.name);
    const description = appDescription(input.description);
    const grantTypes = normalizeGrantTypes(input.grantTypes ?? this.grantTypes, this.grantTypes);
    const publisher = checkAppPublisher(input.publisher ?? {}, NO_PUBLISHER);
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
      client_secret_sealed: clientSecret && this.secretBox.seal(clientSecret),
      secret_updated_at: clientSecret ? now : null,
      description,
      grant_types: grantTypes,
      ...publisher,
      created_at: now,
      updated_at: now,
    };
    await this.apps.inTransaction(async (store, trx) => {
      await store.insertApp(app);
      await store.insertRedirectUris(
        redirectUris.map((uri, position) => ({ app_id: app.id, uri, position, created_at: now })),
      );
      await this.audit.record(
        {
          type: 'app.registered',
          actorUserId: owner.id,
          appId: app.id,
          ip: input.context?.ip ?? null,
          requestId: input.context?.requestId ?? null,
          details: {
            client_id: app.client_id,
            name,
            client_type: clientType,
            grant_types: grantTypes.split(' '),
            redirect_uris: redirectUris,
          },
        },
        trx,
      );
    });
    return {
      app: { ...app, owner_email: owner.email, redirect_uris: redirectUris },
      clientSecret,
    };
  }

  /** Every app (the CLI), or one user's apps (their console dashboard), in creation order. */
  listApps(filter: { ownerUserId?: string } = {}): Promise<AppWithRedirectUris[]> {
    return this.apps.listApps(filter);
  }

  /**
   * The app with this client id when `ownerUserId` owns it; undefined for another user's app, a
   * missing one, and a client id no app can have (which is not looked up).
   */
  async findOwnedApp(ownerUserId: string, clientId: string): Promise<AppRow | undefined> {
    const app = validateClientId(clientId) ? await this.apps.findByClientId(clientId) : undefined;
    return app && app.owner_user_id === ownerUserId ? app : undefined;
  }

  /** The app's registered redirect URIs, in order. */
  redirectUrisOf(app: Pick<AppRow, 'id'>): Promise<string[]> {
    return this.apps.listRedirectUris(app.id);
  }

  /** The latest audit events about the app, newest first. */
  recentActivity(app: Pick<AppRow, 'id'>, limit: number): Promise<AuditEventRow[]> {
    return this.audit.recentForApp(app.id, limit);
  }

  /**
   * Gives a confidential app a new client secret; the old one stops working at once. Another
   * user's app reads as a missing one. The change and its audit entry commit together.
   */
  async rotateSecret(
    ownerUserId: string,
    clientId: string,
    context: AuditContext = {},
  ): Promise<RotatedSecret> {
    const app = await this.ownedApp(ownerUserId, clientId);
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
        this.secretBox.seal(clientSecret),
      );
      if (!changed) return false;
      await this.audit.record(
        {
          type: 'app.secret_rotated',
          actorUserId: ownerUserId,
          appId: app.id,
          ip: context.ip ?? null,
          requestId: context.requestId ?? null,
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
  /**
   * The current client secret of a confidential app, for its owner after they re-enter their
   * password. Refused (ValidationError) on a wrong password or when no sealed copy exists (the
   * secret predates sealing): rotating then yields a revealable one.
   */
  async revealSecret(
    ownerUserId: string,
    clientId: string,
    password: string,
    context: AuditContext = {},
  ): Promise<string> {
    const app = await this.ownedApp(ownerUserId, clientId);
    const owner = await this.accounts.findUserById(ownerUserId);
    if (!owner || !(await verifyPassword(password, owner.password_hash))) {
      throw new ValidationError('the password is incorrect', 'password');
    }
    if (!app.client_secret_sealed) {
      throw new ValidationError(
        'this secret was stored before secrets could be revealed; rotate it to get one you can reveal',
        'client_id',
      );
    }
    await this.audit.record({
      type: 'app.secret_revealed',
      actorUserId: ownerUserId,
      appId: app.id,
      ip: context.ip ?? null,
      requestId: context.requestId ?? null,
    });
    return this.secretBox.open(app.client_secret_sealed);
  }

  /**
   * Changes what the owner edits on the Overview: name, description, allowed grants and the
   * publisher details. Every refused field is reported at once (InvalidFields) and nothing is
   * written; the change and its audit entry (which fields changed, from what to what) commit
   * together, on the app's row locked first so concurrent edits take turns.
   */
  async updateDetails(
    ownerUserId: string,
    clientId: string,
    input: AppDetailsInput,
    context: AuditContext = {},
  ): Promise<AppRow> {
    const app = await this.ownedApp(ownerUserId, clientId);
    const problems: FieldProblem[] = [];
    const name = collectProblems(problems, () => appName(input.name));
    const description = collectProblems(problems, () => appDescription(input.description));
    const grantTypes = collectProblems(problems, () =>
      normalizeGrantTypes(input.grantTypes, this.grantTypes),
    );
    collectProblems(problems, () => checkAppPublisher(input, app));
    if (problems.length) throw new InvalidFields(problems);
    const now = this.clock.now();
    const updated = await this.apps.inTransaction(async (store, trx) => {
      // Touching first locks the row, so the "from" values read next are the ones replaced.
      if (!(await store.touchOwnedApp(app.id, ownerUserId, now))) return undefined;
      const current = await store.findByClientId(app.client_id);
      if (!current) return undefined;
      const details = {
        name: name!,
        description: description ?? null,
        grant_types: grantTypes!,
        // Over the row as it is now: a field left out keeps the latest value, not a stale one.
        ...checkAppPublisher(input, current),
      };
      if (!(await store.updateDetails(app.id, ownerUserId, details, now))) return undefined;
      const changes = detailChanges(current, details);
      if (changes) {
        await this.audit.record(
          {
            type: 'app.updated',
            actorUserId: ownerUserId,
            appId: app.id,
            ip: context.ip ?? null,
            requestId: context.requestId ?? null,
            details: changes,
          },
          trx,
        );
      }
      return { ...current, ...details, updated_at: now };
    });
    if (!updated) throw noSuchApp(clientId);
    return updated;
  }

  /** Adds a redirect URI at the end of the app's list. */
  addRedirectUri(
    ownerUserId: string,
    clientId: string,
    uri: string,
    context: AuditContext = {},
  ): Promise<string[]> {
    return this.changeRedirectUris(ownerUserId, clientId, context, (current) => ({
      next: [...current, uri],
      type: 'app.redirect_uri_added',
      details: { redirect_uri: uri, position: current.length + 1 },
    }));
  }

  /** Replaces the redirect URI at `position` (1 for the first) with another. */
  replaceRedirectUri(
    ownerUserId: string,
    clientId: string,
    position: number,
    uri: string,
    context: AuditContext = {},
  ): Promise<string[]> {
    return this.changeRedirectUris(ownerUserId, clientId, context, (current) => {
      const replaced = uriAt(current, position);
      return {
        next: current.map((existing, index) => (index === position - 1 ? uri : existing)),
        type: 'app.redirect_uri_changed',
        details: { redirect_uri: { from: replaced, to: uri }, position },
      };
    });
  }

  /**
   * Removes the redirect URI at `position` (1 for the first). With `expected`, refuses when
   * another URI is there by now (the list changed since the owner chose which one to remove).
   */
  removeRedirectUri(
    ownerUserId: string,
    clientId: string,
    position: number,
    expected?: string,
    context: AuditContext = {},
  ): Promise<string[]> {
    return this.changeRedirectUris(ownerUserId, clientId, context, (current, app) => {
      const removed = uriAt(current, position);
      if (expected !== undefined && removed !== expected) {
        throw new ValidationError(
          'the redirect URLs changed since this page was opened; nothing was removed, check the list and try again',
          'redirect_uris',
        );
      }
      const remaining = current.filter((_, index) => index !== position - 1);
      if (!remaining.length && allowsGrant(app, 'authorization_code')) {
        throw new ValidationError(
          'an app that signs users in with the authorization code grant needs at least one redirect URL',
          'redirect_uris',
        );
      }
      return {
        next: remaining,
        type: 'app.redirect_uri_removed',
        details: { redirect_uri: removed, position },
      };
    });
  }

  /**
   * Deletes an app its owner no longer wants. Its tokens' records go with it, so access tokens
   * it was issued stop verifying at once; the deletion and its audit entry commit together.
   */
  async deleteApp(
    ownerUserId: string,
    clientId: string,
    context: AuditContext = {},
  ): Promise<AppRow> {
    const app = await this.ownedApp(ownerUserId, clientId);
    const deleted = await this.apps.inTransaction(async (store, trx) => {
      if (!(await store.deleteOwnedApp(app.id, ownerUserId))) return false;
      await this.audit.record(
        {
          type: 'app.deleted',
          actorUserId: ownerUserId,
          appId: app.id,
          ip: context.ip ?? null,
          requestId: context.requestId ?? null,
          details: { client_id: app.client_id, name: app.name },
        },
        trx,
      );
      return true;
    });
    if (!deleted) throw noSuchApp(clientId);
    return app;
  }

  /**
   * Reads, changes and validates an app's redirect URIs in one transaction that holds the app's
   * row, so two edits never interleave and a refused change writes nothing; the change is
   * audited as `change` describes it.
   */
  private async changeRedirectUris(
    ownerUserId: string,
    clientId: string,
    context: AuditContext,
    change: (current: string[], app: AppRow) => RedirectUriChange,
  ): Promise<string[]> {
    const app = await this.ownedApp(ownerUserId, clientId);
    const now = this.clock.now();
    return this.apps.inTransaction(async (store, trx) => {
      if (!(await store.touchOwnedApp(app.id, ownerUserId, now))) throw noSuchApp(clientId);
      const changed = change(await store.listRedirectUris(app.id), app);
      const next = validateRedirectUris(changed.next);
      await store.replaceRedirectUris(app.id, next, now);
      await this.audit.record(
        {
          type: changed.type,
          actorUserId: ownerUserId,
          appId: app.id,
          ip: context.ip ?? null,
          requestId: context.requestId ?? null,
          details: changed.details,
        },
        trx,
      );
      return next;
    });
  }

  /**
   * The app when this user owns it; another user's app reads as a missing one, and so does a
   * client id no app can have (it is not looked up).
   */
  private async ownedApp(ownerUserId: string, clientId: string): Promise<AppRow> {
    const app = await this.findOwnedApp(ownerUserId, clientId);
    if (!app) throw noSuchApp(clientId);
    return app;
  }
}

const NO_PUBLISHER = {
  developer_name: null,
  homepage_url: null,
  privacy_policy_url: null,
  logo_url: null,
};

/** Runs one field's check; a refusal joins `problems` (and gives undefined) instead of throwing. */
function collectProblems<T>(problems: FieldProblem[], check: () => T): T | undefined {
  try {
    return check();
  } catch (error) {
    if (error instanceof InvalidFields) problems.push(...error.problems);
    else if (error instanceof ValidationError) {
      problems.push({ field: error.field ?? 'name', message: error.message });
    } else throw error;
    return undefined;
  }
}

function noSuchApp(clientId: string): NotFoundError {
  return new NotFoundError(`no app with client id ${clientId}`, 'client_id');
}

function appName(input: string): string {
  const name = input.trim();
  if (!name) throw new ValidationError('name must not be empty', 'name');
  if (name.length > MAX_APP_NAME_LENGTH) {
    throw new ValidationError(`name must be at most ${MAX_APP_NAME_LENGTH} characters`, 'name');
  }
  const problem = singleLineTextProblem(name);
  if (problem) throw new ValidationError(`name ${problem}`, 'name');
  return name;
}

/** Trimmed, null when blank. */
function appDescription(input: string | null | undefined): string | null {
  const description = (input ?? '').trim();
  if (description.length > MAX_DESCRIPTION_LENGTH) {
    throw new ValidationError(
      `description must be at most ${MAX_DESCRIPTION_LENGTH} characters`,
      'description',
    );
  }
  const problem = multiLineTextProblem(description);
  if (problem) throw new ValidationError(`description ${problem}`, 'description');
  return description || null;
}

/** The redirect URI at `position` (1 for the first); NotFoundError when there is none. */
function uriAt(current: string[], position: number): string {
  if (!Number.isInteger(position) || position < 1 || position > current.length) {
    throw new NotFoundError(`no redirect URI at position ${position}`, 'position');
  }
  return current[position - 1]!;
}

/** Overview fields whose old and new values the audit trail shows (short, never secret). */
const SHOWN_FROM_TO = [
  'name',
  'developer_name',
  'homepage_url',
  'privacy_policy_url',
  'logo_url',
] as const;

/**
 * What an Overview edit changed, for the audit trail: the changed fields; the name, grants and
 * publisher details from → to (a description may be long: only that it changed). Undefined when
 * nothing did.
 */
function detailChanges(
  before: EditableAppDetails,
  after: EditableAppDetails,
): Record<string, unknown> | undefined {
  const changed = (
    [
      'name',
      'description',
      'grant_types',
      'developer_name',
      'homepage_url',
      'privacy_policy_url',
      'logo_url',
    ] as const
  ).filter((key) => (before[key] ?? null) !== (after[key] ?? null));
  if (!changed.length) return undefined;
  const details: Record<string, unknown> = { changed };
  for (const key of SHOWN_FROM_TO) {
    if (changed.includes(key)) details[key] = { from: before[key] ?? null, to: after[key] ?? null };
  }
  if (changed.includes('grant_types')) {
    details.grant_types = {
      from: before.grant_types.split(' '),
      to: after.grant_types.split(' '),
    };
  }
  return details;
}
