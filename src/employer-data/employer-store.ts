import { Store } from '../db/store.js';

/** A row of partner_employers (migration 0029). */
export interface PartnerEmployerRow {
  id: string;
  owner_user_id: string;
  app_id: string;
  id_type: string;
  external_id: string;
  employer_name: string;
  attributes: string;
  created_at: number;
  updated_at: number;
}

const TABLE = 'partner_employers';

/** The SQL of partner_employers; Employer Data is its only writer. */
export class EmployerStore extends Store {
  /** The partner's employer with this pair, locked until the transaction ends. */
  async lockByPair(
    ownerUserId: string,
    pair: { type: string; id: string },
  ): Promise<PartnerEmployerRow | undefined> {
    return this.forUpdate(
      this.db<PartnerEmployerRow>(TABLE).where({
        owner_user_id: ownerUserId,
        id_type: pair.type,
        external_id: pair.id,
      }),
    ).first();
  }

  /** Inserts `row` unless its pair is taken (by a concurrent request too); true when inserted. */
  async insertUnlessPairTaken(row: PartnerEmployerRow): Promise<boolean> {
    await this.db(TABLE)
      .insert(row)
      .onConflict(['owner_user_id', 'id_type', 'external_id'])
      .ignore();
    const stored = await this.lockByPair(row.owner_user_id, {
      type: row.id_type,
      id: row.external_id,
    });
    return stored?.id === row.id;
  }

  async update(
    id: string,
    fields: Pick<PartnerEmployerRow, 'employer_name' | 'attributes' | 'updated_at'>,
  ) {
    await this.db(TABLE).where({ id }).update(fields);
  }

  /** Which of `pairs` this app created (and still owns). */
  async pairsOfApp(
    appId: string,
    pairs: ReadonlyArray<{ type: string; id: string }>,
  ): Promise<Array<{ type: string; id: string }>> {
    if (!pairs.length) return [];
    const rows = await this.db<PartnerEmployerRow>(TABLE)
      .select('id_type', 'external_id')
      .where({ app_id: appId })
      .whereIn(
        'external_id',
        pairs.map((pair) => pair.id),
      );
    return rows.map((row) => ({ type: row.id_type, id: row.external_id }));
  }
}
