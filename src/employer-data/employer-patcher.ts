import { randomUUID } from 'node:crypto';
import type { PatchEmployerInput } from '../../generated/graphql.js';
import type { Clock } from '../clock.js';
import type { Transaction } from '../db/transactions.js';
import { DomainError } from '../errors.js';
import { checkEmployerIdentifiers } from '../validation/employer-identifiers.js';
import { InputProblem } from '../validation/input-text.js';
import type { EmployerStore, PartnerEmployerRow } from './employer-store.js';
import type { PatchOutcome } from './patch-outcome.js';
import { checkEmployerName, patchedAttributes, type EmployerAttributes } from './employer-rules.js';

/** The app calling, and the partner (its owner account) whose employers it may patch. */
export interface PatchingApp {
  appId: string;
  ownerUserId: string;
}

/** An employer another app of the partner created: only that app may change it. */
export class ProtectedEmployer extends DomainError {}

/**
 * Employer Data's `patchEmployer` (platform-apis.md §4): creates the partner's employer named
 * by `{type, id}` or updates it, merging the attributes entry by entry.
 */
export class EmployerPatcher {
  constructor(
    private readonly store: EmployerStore,
    private readonly clock: Clock,
  ) {}

  async patch(app: PatchingApp, input: PatchEmployerInput): Promise<PatchOutcome> {
    const pair = checkEmployerIdentifiers(input.id, ['id']);
    const name =
      input.employerName == null ? null : checkEmployerName(input.employerName, ['employerName']);
    const now = this.clock.now();
    return this.store.inTransaction(async (store) => {
      const existing = await store.lockByPair(app.ownerUserId, pair);
      if (!existing) {
        if (name === null) {
          throw new InputProblem('employerName is required to create an employer', [
            'employerName',
          ]);
        }
        const row = newRow(app, pair, name, attributesOf(input, EMPTY, name), now);
        if (await store.insertUnlessPairTaken(row)) return { employerKey: row.id, changed: true };
      }
      const current = existing ?? (await store.lockByPair(app.ownerUserId, pair))!;
      return updated(store, app, current, input, name, now);
    });
  }
}

const EMPTY: EmployerAttributes = { countries: {}, locales: {} };

async function updated(
  store: EmployerStore,
  app: PatchingApp,
  current: PartnerEmployerRow,
  input: PatchEmployerInput,
  name: string | null,
  now: number,
): Promise<PatchOutcome> {
  if (current.app_id !== app.appId) {
    throw new ProtectedEmployer(
      'This employer is protected: it was created by another app of this partner, and only ' +
        'that app may change it',
      'id',
    );
  }
  const employerName = name ?? current.employer_name;
  const attributes = JSON.stringify(
    attributesOf(input, JSON.parse(current.attributes) as EmployerAttributes, employerName),
  );
  if (employerName === current.employer_name && attributes === current.attributes) {
    return { employerKey: current.id, changed: false };
  }
  await store.update(current.id, { employer_name: employerName, attributes, updated_at: now });
  return { employerKey: current.id, changed: true };
}

function attributesOf(
  input: PatchEmployerInput,
  stored: EmployerAttributes,
  employerName: string,
): EmployerAttributes {
  return input.employerAttributes
    ? patchedAttributes(stored, input.employerAttributes, employerName)
    : stored;
}

function newRow(
  app: PatchingApp,
  pair: { type: string; id: string },
  name: string,
  attributes: EmployerAttributes,
  now: number,
): PartnerEmployerRow {
  return {
    id: randomUUID(),
    owner_user_id: app.ownerUserId,
    app_id: app.appId,
    id_type: pair.type,
    external_id: pair.id,
    employer_name: name,
    attributes: JSON.stringify(attributes),
    created_at: now,
    updated_at: now,
  };
}

/** Job Sync's question to Employer Data: which cited pairs this app never created. */
export class EmployerPairs {
  constructor(private readonly store: EmployerStore) {}

  async missingPairs(
    appId: string,
    pairs: ReadonlyArray<{ type: string; id: string }>,
    tx: Transaction,
  ): Promise<Array<{ type: string; id: string }>> {
    const found = await this.store.on(tx).pairsOfApp(appId, pairs);
    const known = new Set(found.map((pair) => JSON.stringify([pair.type, pair.id])));
    return pairs.filter((pair) => !known.has(JSON.stringify([pair.type, pair.id])));
  }
}
