import { randomUUID } from 'node:crypto';
import type { AuditEntry, AuditEventType, AuditLog } from '../audit/audit-log.js';
import type { Clock } from '../clock.js';
import type {
  EpochMs,
  WebhookAttemptRow,
  WebhookDeliveryRow,
  WebhookEndpointRow,
} from '../db/rows.js';
import type { Transaction } from '../db/transactions.js';
import { InvalidFields, NotFoundError, ValidationError, type FieldProblem } from '../errors.js';
import { multiLineTextProblem } from '../security/text-safety.js';
import type { SecretBox } from '../security/secret-box.js';
import type { DeliveryLog, DeliveryPage } from './delivery-log.js';
import type { EndpointUrlCheck } from './endpoint-url-check.js';
import { SUBSCRIBABLE_EVENT_TYPES, TEST_EVENT_TYPE } from './event-types.js';
import { filterValues, storedFilter } from './filters.js';
import type { ManagedEndpointStore } from './managed-endpoint-store.js';
import type { WebhookNotice } from './notice.js';
import { newEndpointSecret } from './signature.js';

/** What the owner chooses for an endpoint. Empty filters take everything. */
export interface EndpointInput {
  url: string;
  description?: string | null;
  /** Interview event types (with their `.v1`); empty for every type. */
  eventTypes?: readonly string[];
  /** Employer ids; empty for every employer of the app. */
  employerIds?: readonly string[];
}

/** What an update changes: a field left undefined keeps its current value. */
export type EndpointChanges = Partial<EndpointInput>;

/** Who asks for a change, as its audit entry records it: none of these for the CLI. */
export interface WebhookActor {
  userId?: string | null;
  ip?: string | null;
  requestId?: string | null;
}

/** An endpoint as the console, the CLI and the API show it: never a secret, sealed or not. */
export interface EndpointView {
  id: string;
  appId: string;
  url: string;
  description: string | null;
  eventTypes: string[];
  employerIds: string[];
  enabled: boolean;
  disabledReason: string | null;
  disabledAt: EpochMs | null;
  /** Since when every attempt failed; null after a success. */
  failingSince: EpochMs | null;
  /** Until when the secret before the last rotation still signs too; null when it no longer does. */
  previousSecretUntil: EpochMs | null;
  createdAt: EpochMs;
  updatedAt: EpochMs;
}

/** A new or rotated endpoint with its secret, for its one display. */
export interface EndpointWithSecret {
  endpoint: EndpointView;
  secret: string;
}

export interface DeliveryDetails {
  delivery: WebhookDeliveryRow;
  /** Oldest first. */
  attempts: WebhookAttemptRow[];
}

export interface EndpointRules {
  endpointsPerApp: number;
  employersPerEndpoint: number;
  /** How long the previous secret still signs after a rotation (0: not at all). */
  secretOverlapMs: number;
}

/** Of `ids`, those that are employers. */
export type EmployerLookup = (ids: readonly string[]) => Promise<ReadonlySet<string>>;

/** Writes a notice to one endpoint in `tx` (StoredWebhookOutbox.recordTo). */
export interface TargetedOutbox {
  recordTo(endpointId: string, notice: WebhookNotice, tx: Transaction): Promise<void>;
}

/** Why an owner-disabled endpoint is off, as its page shows it. */
export const DISABLED_BY_OWNER = 'disabled by its owner';

export const MAX_ENDPOINT_DESCRIPTION_LENGTH = 500;

/**
 * The rules of an app's webhook endpoints (DESIGN §8, management): registration with a checked
 * URL and filters, the `whsec_` secret shown once and stored sealed, rotation with an overlap,
 * enabling and disabling, deletion, a test event, and resending or recovering deliveries. Every
 * method is scoped to one app: another app's endpoint reads as a missing one. Each change is
 * audited with its actor, in the change's transaction where the change is this service's own.
 */
export class WebhookEndpointService {
  constructor(
    private readonly store: ManagedEndpointStore,
    private readonly outbox: TargetedOutbox,
    private readonly deliveryLog: DeliveryLog,
    private readonly audit: AuditLog,
    /** Seals endpoint secrets (shared.boxes.webhookSecrets). */
    private readonly box: SecretBox,
    private readonly clock: Clock,
    private readonly rules: EndpointRules,
    private readonly checkUrl: EndpointUrlCheck,
    private readonly employers: EmployerLookup,
  ) {}

  /** Registers an endpoint; its secret is in the answer and nowhere else in the clear. */
  async create(appId: string, input: EndpointInput, actor: WebhookActor = {}) {
    const fields = await this.checkedFields(input);
    const secret = newEndpointSecret();
    const now = this.clock.now();
    const row: WebhookEndpointRow = {
      id: randomUUID(),
      app_id: appId,
      ...fields,
      enabled: true,
      disabled_reason: null,
      disabled_at: null,
      secret_sealed: this.box.seal(secret),
      previous_secret_sealed: null,
      previous_secret_until: null,
      failing_since: null,
      created_at: now,
      updated_at: now,
    };
    await this.store.inTransaction(async (store, tx) => {
      // Creations take turns, so two racing past the count cannot both fit under the cap.
      await store.lockCreations();
      if ((await store.countForApp(appId)) >= this.rules.endpointsPerApp) {
        throw new ValidationError(
          `an app may have at most ${this.rules.endpointsPerApp} webhook endpoints; delete one to add another`,
          'endpoints',
        );
      }
      await store.insert(row);
      await this.record(
        'webhook.endpoint_created',
        appId,
        actor,
        { endpoint_id: row.id, ...filterDetails(row) },
        tx,
      );
    });
    return { endpoint: viewOf(row), secret } satisfies EndpointWithSecret;
  }

  /**
   * Changes the given fields of the URL, description and filters; the others, the secret and the
   * state stay. The fields left out are taken from the row as it is under the update's lock, so
   * two partial updates that race both land.
   */
  async update(
    appId: string,
    endpointId: string,
    changes: EndpointChanges,
    actor: WebhookActor = {},
  ): Promise<EndpointView> {
    const fields = await this.checkedChanges(changes);
    return this.store.inTransaction(async (store, tx) => {
      const current = await this.locked(store, appId, endpointId);
      const now = this.clock.now();
      await store.change(appId, endpointId, { ...fields, updated_at: now });
      const next = { ...current, ...fields, updated_at: now };
      const changed = (['url', 'description', 'event_types', 'employer_ids'] as const).filter(
        (key) => current[key] !== next[key],
      );
      if (changed.length) {
        const before = filterDetails(current);
        const after = filterDetails(next);
        await this.record(
          'webhook.endpoint_updated',
          appId,
          actor,
          {
            endpoint_id: endpointId,
            changed,
            ...Object.fromEntries(
              (['url', 'event_types', 'employer_ids'] as const)
                .filter((key) => changed.includes(key))
                .map((key) => [key, { from: before[key], to: after[key] }]),
            ),
          },
          tx,
        );
      }
      return viewOf(next);
    });
  }

  /** The app's endpoints, oldest first. */
  async list(appId: string): Promise<EndpointView[]> {
    return (await this.store.listForApp(appId)).map(viewOf);
  }

  async get(appId: string, endpointId: string): Promise<EndpointView> {
    return viewOf(await this.existing(appId, endpointId));
  }

  /**
   * A new secret signs from now on; the previous one signs beside it for the configured overlap,
   * so that receivers can switch without losing a delivery. A second rotation within the overlap
   * ends the first secret's at once.
   */
  async rotateSecret(
    appId: string,
    endpointId: string,
    actor: WebhookActor = {},
  ): Promise<EndpointWithSecret> {
    const secret = newEndpointSecret();
    const endpoint = await this.store.inTransaction(async (store, tx) => {
      const current = await this.locked(store, appId, endpointId);
      const now = this.clock.now();
      const overlap = this.rules.secretOverlapMs > 0;
      const change = {
        secret_sealed: this.box.seal(secret),
        previous_secret_sealed: overlap ? current.secret_sealed : null,
        previous_secret_until: overlap ? now + this.rules.secretOverlapMs : null,
        updated_at: now,
      };
      await store.change(appId, endpointId, change);
      await this.record(
        'webhook.secret_rotated',
        appId,
        actor,
        {
          endpoint_id: endpointId,
          previous_secret_until: change.previous_secret_until
            ? new Date(change.previous_secret_until).toISOString()
            : null,
        },
        tx,
      );
      return { ...current, ...change };
    });
    return { endpoint: viewOf(endpoint), secret };
  }

  /** Turns deliveries back on, forgetting the failures that disabled it. */
  enable(appId: string, endpointId: string, actor: WebhookActor = {}): Promise<EndpointView> {
    return this.changeState(appId, endpointId, actor, 'webhook.endpoint_enabled', () => ({
      enabled: true,
      disabled_reason: null,
      disabled_at: null,
      failing_since: null,
    }));
  }

  /** Stops deliveries to the endpoint until it is enabled again. */
  disable(appId: string, endpointId: string, actor: WebhookActor = {}): Promise<EndpointView> {
    return this.changeState(appId, endpointId, actor, 'webhook.endpoint_disabled', (now) => ({
      enabled: false,
      disabled_reason: DISABLED_BY_OWNER,
      disabled_at: now,
    }));
  }

  /** Deletes the endpoint with its deliveries and their attempts. */
  async remove(appId: string, endpointId: string, actor: WebhookActor = {}): Promise<EndpointView> {
    return this.store.inTransaction(async (store, tx) => {
      const current = await this.locked(store, appId, endpointId);
      await store.delete(appId, endpointId);
      await this.record(
        'webhook.endpoint_deleted',
        appId,
        actor,
        { endpoint_id: endpointId, url: shownUrl(current.url) },
        tx,
      );
      return viewOf(current);
    });
  }

  /**
   * Queues a `webhook.test.v1` delivery to this endpoint whatever its filters, and answers it
   * (pending). A disabled endpoint is refused: nothing would be delivered.
   */
  async sendTest(
    appId: string,
    endpointId: string,
    actor: WebhookActor = {},
  ): Promise<WebhookDeliveryRow | undefined> {
    const endpoint = await this.existing(appId, endpointId);
    requireEnabled(endpoint, 'send a test event');
    const now = this.clock.now();
    await this.store.inTransaction(async (_store, tx) => {
      await this.outbox.recordTo(
        endpointId,
        {
          appId,
          employerId: null,
          type: TEST_EVENT_TYPE,
          subject: endpointId,
          time: now,
          data: { endpointId, appId },
        },
        tx,
      );
      await this.record('webhook.test_sent', appId, actor, { endpoint_id: endpointId }, tx);
    });
    const newest = await this.deliveryLog.list(appId, endpointId, { first: 1 });
    return newest.deliveries[0];
  }

  /** One page of the endpoint's deliveries, newest first. */
  async deliveries(
    appId: string,
    endpointId: string,
    page: { first: number; after?: string | null; status?: WebhookDeliveryRow['status'] },
  ): Promise<DeliveryPage> {
    await this.existing(appId, endpointId);
    const { first: count } = page;
    if (!Number.isInteger(count) || count < 1 || count > 100) {
      throw new ValidationError('first must be a whole number from 1 to 100', 'first');
    }
    return this.deliveryLog.list(appId, endpointId, page);
  }

  /** One delivery of the app with its attempts. */
  async delivery(appId: string, deliveryId: number): Promise<DeliveryDetails> {
    const delivery = await this.existingDelivery(appId, deliveryId);
    const attempts = await this.deliveryLog.attempts(appId, [deliveryId]);
    return { delivery, attempts: attempts.get(deliveryId) ?? [] };
  }

  /** Sends one delivery again at once, with the same `webhook-id`, whatever its status. */
  async resend(
    appId: string,
    deliveryId: number,
    actor: WebhookActor = {},
  ): Promise<WebhookDeliveryRow> {
    const delivery = await this.existingDelivery(appId, deliveryId);
    requireEnabled(await this.existing(appId, delivery.endpoint_id), 'resend a delivery');
    const resent = await this.deliveryLog.resend(appId, deliveryId, this.clock.now());
    if (!resent) throw noSuchDelivery(deliveryId);
    await this.record('webhook.delivery_resent', appId, actor, {
      endpoint_id: delivery.endpoint_id,
      delivery_id: deliveryId,
      type: delivery.type,
    });
    return resent;
  }

  /** Queues again every failed delivery of the endpoint created at or after `since`. */
  async recoverFailed(
    appId: string,
    endpointId: string,
    since: EpochMs,
    actor: WebhookActor = {},
  ): Promise<number> {
    const endpoint = await this.existing(appId, endpointId);
    const now = this.clock.now();
    if (!Number.isFinite(since)) throw new ValidationError('since must be a time', 'since');
    if (since > now) throw new ValidationError('since must not be in the future', 'since');
    requireEnabled(endpoint, 'recover failed deliveries');
    const recovered = await this.deliveryLog.recoverFailed(appId, endpointId, since, now);
    await this.record('webhook.deliveries_recovered', appId, actor, {
      endpoint_id: endpointId,
      since: new Date(since).toISOString(),
      recovered,
    });
    return recovered;
  }

  private async changeState(
    appId: string,
    endpointId: string,
    actor: WebhookActor,
    type: AuditEventType,
    state: (now: EpochMs) => Omit<Parameters<ManagedEndpointStore['change']>[2], 'updated_at'>,
  ): Promise<EndpointView> {
    return this.store.inTransaction(async (store, tx) => {
      const current = await this.locked(store, appId, endpointId);
      const now = this.clock.now();
      const change = { ...state(now), updated_at: now };
      await store.change(appId, endpointId, change);
      await this.record(type, appId, actor, { endpoint_id: endpointId }, tx);
      return viewOf({ ...current, ...change });
    });
  }

  /** The stored form of a whole input, every refused field reported at once. */
  private async checkedFields(input: EndpointInput) {
    const fields = await this.checkedChanges({
      ...input,
      eventTypes: input.eventTypes ?? [],
      employerIds: input.employerIds ?? [],
    });
    return {
      url: fields.url!,
      description: fields.description ?? null,
      event_types: fields.event_types!,
      employer_ids: fields.employer_ids!,
    };
  }

  /** The stored form of the given fields only, every refused field reported at once. */
  private async checkedChanges(changes: EndpointChanges) {
    const problems: FieldProblem[] = [];
    const fields: Partial<
      Pick<WebhookEndpointRow, 'url' | 'description' | 'event_types' | 'employer_ids'>
    > = {};
    const { url, description, eventTypes, employerIds } = changes;
    if (url !== undefined) {
      await collect(problems, 'url', async () => (fields.url = (await this.checkUrl(url)).href));
    }
    if (description !== undefined) {
      await collect(problems, 'description', async () => {
        fields.description = endpointDescription(description) ?? null;
      });
    }
    if (eventTypes !== undefined) {
      await collect(problems, 'event_types', async () => {
        fields.event_types = storedFilter(checkedEventTypes(eventTypes));
      });
    }
    if (employerIds !== undefined) {
      await collect(problems, 'employer_ids', async () => {
        fields.employer_ids = storedFilter(await this.checkedEmployers(employerIds));
      });
    }
    if (problems.length) throw new InvalidFields(problems);
    return fields;
  }

  private async checkedEmployers(input: readonly string[]): Promise<string[]> {
    const ids = [...new Set(input.map((id) => id.trim()).filter((id) => id !== ''))];
    const most = this.rules.employersPerEndpoint;
    if (ids.length > most) {
      throw new ValidationError(`an endpoint may name at most ${most} employers`, 'employer_ids');
    }
    const known = ids.length ? await this.employers(ids) : new Set<string>();
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length) {
      throw new ValidationError(
        `no employer with id ${unknown.map((id) => JSON.stringify(id.slice(0, 64))).join(', ')}`,
        'employer_ids',
      );
    }
    return ids;
  }

  private async existing(appId: string, endpointId: string): Promise<WebhookEndpointRow> {
    const row = await this.store.find(appId, endpointId);
    if (!row) throw noSuchEndpoint(endpointId);
    return row;
  }

  private async locked(
    store: ManagedEndpointStore,
    appId: string,
    endpointId: string,
  ): Promise<WebhookEndpointRow> {
    const row = await store.findLocked(appId, endpointId);
    if (!row) throw noSuchEndpoint(endpointId);
    return row;
  }

  private async existingDelivery(appId: string, deliveryId: number): Promise<WebhookDeliveryRow> {
    if (!Number.isSafeInteger(deliveryId) || deliveryId < 1) throw noSuchDelivery(deliveryId);
    const delivery = await this.deliveryLog.find(appId, deliveryId);
    if (!delivery) throw noSuchDelivery(deliveryId);
    return delivery;
  }

  private record(
    type: AuditEventType,
    appId: string,
    actor: WebhookActor,
    details: Record<string, unknown>,
    tx?: Transaction,
  ): Promise<void> {
    const entry: AuditEntry = {
      type,
      actorUserId: actor.userId ?? null,
      appId,
      ip: actor.ip ?? null,
      requestId: actor.requestId ?? null,
      details,
    };
    return this.audit.record(entry, tx);
  }
}

/** The view of a row; the sealed secrets stay behind. */
export function viewOf(row: WebhookEndpointRow): EndpointView {
  const previousUntil =
    row.previous_secret_until === null ? null : Number(row.previous_secret_until);
  return {
    id: row.id,
    appId: row.app_id,
    url: row.url,
    description: row.description,
    eventTypes: filterValues(row.event_types),
    employerIds: filterValues(row.employer_ids),
    enabled: Boolean(row.enabled),
    disabledReason: row.disabled_reason,
    disabledAt: row.disabled_at === null ? null : Number(row.disabled_at),
    failingSince: row.failing_since === null ? null : Number(row.failing_since),
    previousSecretUntil: previousUntil,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/**
 * The URL as the audit trail shows it: a query string may carry a receiver's own token, so only
 * that there was one.
 */
export function shownUrl(url: string): string {
  const question = url.indexOf('?');
  return question === -1 ? url : `${url.slice(0, question)}?…`;
}

function filterDetails(row: Pick<WebhookEndpointRow, 'url' | 'event_types' | 'employer_ids'>) {
  return {
    url: shownUrl(row.url),
    event_types: filterValues(row.event_types),
    employer_ids: filterValues(row.employer_ids),
  };
}

function checkedEventTypes(input: readonly string[]): string[] {
  const types = [...new Set(input.map((type) => type.trim()).filter((type) => type !== ''))];
  const known: readonly string[] = SUBSCRIBABLE_EVENT_TYPES;
  const unknown = types.filter((type) => !known.includes(type));
  if (unknown.length) {
    throw new ValidationError(
      `unknown event type ${unknown.map((type) => JSON.stringify(type.slice(0, 100))).join(', ')}; ` +
        `choose among ${known.join(', ')}`,
      'event_types',
    );
  }
  return types;
}

/** Trimmed, null when blank. */
function endpointDescription(input: string | null | undefined): string | null {
  const description = (input ?? '').trim();
  if (description.length > MAX_ENDPOINT_DESCRIPTION_LENGTH) {
    throw new ValidationError(
      `description must be at most ${MAX_ENDPOINT_DESCRIPTION_LENGTH} characters`,
      'description',
    );
  }
  const problem = multiLineTextProblem(description);
  if (problem) throw new ValidationError(`description ${problem}`, 'description');
  return description || null;
}

function requireEnabled(endpoint: WebhookEndpointRow, action: string): void {
  if (!endpoint.enabled) {
    throw new ValidationError(`the endpoint is disabled; enable it to ${action}`, 'endpoint_id');
  }
}

/** Runs one field's check; a refusal joins `problems` (and gives undefined) instead of throwing. */
async function collect<T>(
  problems: FieldProblem[],
  field: string,
  check: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof InvalidFields) problems.push(...error.problems);
    else if (error instanceof ValidationError) {
      problems.push({ field: error.field ?? field, message: error.message });
    } else throw error;
    return undefined;
  }
}

function noSuchEndpoint(endpointId: string): NotFoundError {
  return new NotFoundError(
    `no webhook endpoint with id ${JSON.stringify(endpointId.slice(0, 64))}`,
    'endpoint_id',
  );
}

function noSuchDelivery(deliveryId: number): NotFoundError {
  return new NotFoundError(`no webhook delivery with id ${deliveryId}`, 'delivery_id');
}
