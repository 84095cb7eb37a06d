import type {
  AccessTokenRow,
  AuditEventRow,
  RefreshTokenFamilyRow,
  RefreshTokenRow,
} from '../../db/rows.js';
import { ACCOUNTS_EPOCH } from '../../db/change-epochs.js';
import { dialectOf } from '../../db/dialects/index.js';
import { commitGrouped, type SingleUse } from '../../db/group-commit.js';
import { Store } from '../../db/store.js';

export type RefreshConsumption =
  | { outcome: 'consumed' }
  | { outcome: 'reused'; token: RefreshTokenRow; family: RefreshTokenFamilyRow }
  | { outcome: 'expired' | 'revoked'; family: RefreshTokenFamilyRow }
  | { outcome: 'unknown' };

/** What a user grant stores at once: its access token, a refresh token (and family), its audit row. */
export interface IssuedRows {
  family?: RefreshTokenFamilyRow;
  refreshToken?: RefreshTokenRow;
  accessToken: AccessTokenRow;
  audit: Omit<AuditEventRow, 'id'>;
}

/** Written once rather than built per call: every refresh reads it first. */
const FAMILY_OF_TOKEN_SQL =
  'select f.* from refresh_token_families f join refresh_tokens t on t.family_id = f.id ' +
  'where t.token_hash = ? limit 1';

/**
 * Refresh tokens as group commit consumes them. The UPDATE is conditional (unused, unexpired,
 * family not revoked), so that of concurrent refreshes with one token exactly one succeeds.
 * Where transactions run side by side, the families are held first, so that a refresh and a
 * revocation of the same family happen one after the other: a revocation that started first
 * is seen by the UPDATE, one that starts later sees the refresh's tokens (revokeFamily's
 * update waits for the hold).
 */
const refreshTokenUse: SingleUse = {
  keyColumn: 'token_hash',
  consume: (db, tokenHashes, now) =>
    db('refresh_tokens')
      .whereIn('token_hash', tokenHashes)
      .whereNull('consumed_at')
      .where('expires_at', '>', now)
      .whereNotExists((query) =>
        query
          .from('refresh_token_families as f')
          .whereRaw('f.id = refresh_tokens.family_id')
          .whereNotNull('f.revoked_at'),
      )
      .update({ consumed_at: now }, ['token_hash']),
  hold(db, familyIds) {
    const dialect = dialectOf(db);
    return dialect.forShare(db('refresh_token_families').whereIn('id', familyIds).select('id'));
  },
};

/** SQL for issued access-token records and refresh-token families. */
export class TokenStore extends Store {
  async insertAccessToken(row: AccessTokenRow): Promise<void> {
    await this.db('access_tokens').insert(row);
  }

  /**
   * Stores an access token and the audit row of its issue, committed together with other
   * requests' (src/db/group-commit.ts); resolves once committed. `factsAsOf`: see GroupedWrite.
   */
  async insertIssuedAccessToken(
    row: AccessTokenRow,
    audit: Omit<AuditEventRow, 'id'>,
    factsAsOf: number | undefined,
  ): Promise<void> {
    await commitGrouped(this.db, {
      rows: [
        ['access_tokens', [row]],
        ['audit_events', [audit]],
      ],
      factsAsOf,
    });
  }

  /**
   * Inserts what a grant issued, one statement per table (src/db/group-commit.ts); in a
   * transaction, the rows commit with it, otherwise with other requests' rows.
   */
  async insertIssued(rows: IssuedRows): Promise<void> {
    await commitGrouped(this.db, { rows: issuedRowsByTable(rows) });
  }

  /**
   * Rotates a refresh token of family `familyId`: consumes it and, only if it was consumed,
   * stores `rows` (the new refresh token, the access token, the audit row), atomically, in a
   * group commit (src/db/group-commit.ts) whose transaction consumes the group's refresh tokens
   * in one statement (refreshTokenUse). Nothing is stored of a token that was not consumed; only
   * then are its rows read again, to say why.
   */
  async rotateRefreshToken(
    familyId: string,
    tokenHash: string,
    now: number,
    rows: IssuedRows,
  ): Promise<RefreshConsumption> {
    const stored = await commitGrouped(this.db, {
      rows: issuedRowsByTable(rows),
      consumes: { use: refreshTokenUse, key: tokenHash, holding: familyId, now },
    });
    return stored ? { outcome: 'consumed' } : this.whyNotConsumed(tokenHash);
  }

  findAccessToken(jti: string): Promise<AccessTokenRow | undefined> {
    return this.db('access_tokens').where({ jti }).first();
  }

  /**
   * The access token's record and, in the same statement, the accounts change epoch (what the
   * caller's cached facts about apps must have reached: src/db/change-epochs.ts).
   */
  async findAccessTokenWithAccountsEpoch(
    jti: string,
  ): Promise<{ record: AccessTokenRow; accountsEpoch: number } | undefined> {
    const row: (AccessTokenRow & { accounts_epoch: number | string | null }) | undefined =
      await this.db('access_tokens')
        .where({ jti })
        .first(
          'access_tokens.*',
          this.db.raw('(select epoch from change_epochs where name = ?) as accounts_epoch', [
            ACCOUNTS_EPOCH,
          ]),
        );
    if (!row) return undefined;
    const { accounts_epoch: epoch, ...record } = row;
    return { record, accountsEpoch: Number(epoch ?? 0) };
  }

  async revokeAccessToken(jti: string, at: number): Promise<number> {
    return this.db('access_tokens')
      .where({ jti })
      .whereNull('revoked_at')
      .update({ revoked_at: at });
  }

  async insertFamily(row: RefreshTokenFamilyRow): Promise<void> {
    await this.db('refresh_token_families').insert(row);
  }

  async insertRefreshToken(row: RefreshTokenRow): Promise<void> {
    await this.db('refresh_tokens').insert(row);
  }

  findRefreshToken(tokenHash: string): Promise<RefreshTokenRow | undefined> {
    return this.db('refresh_tokens').where({ token_hash: tokenHash }).first();
  }

  /** The family of a refresh token, in one statement; undefined for an unknown token. */
  async findFamilyOfRefreshToken(tokenHash: string): Promise<RefreshTokenFamilyRow | undefined> {
    const [row] = await this.dialect.select(this.db, FAMILY_OF_TOKEN_SQL, [tokenHash]);
    return row as RefreshTokenFamilyRow | undefined;
  }

  findFamily(id: string): Promise<RefreshTokenFamilyRow | undefined> {
    return this.db('refresh_token_families').where({ id }).first();
  }

  /**
   * Why a refresh token could not be consumed. Each reason, once true, stays true (a token is
   * consumed, expired or revoked for good), so it may be read after the refusal.
   */
  private async whyNotConsumed(tokenHash: string): Promise<RefreshConsumption> {
    const token = await this.findRefreshToken(tokenHash);
    if (!token) return { outcome: 'unknown' };
    const family = await this.findFamily(token.family_id);
    if (!family) return { outcome: 'unknown' };
    if (family.revoked_at !== null) return { outcome: 'revoked', family };
    if (token.consumed_at !== null) return { outcome: 'reused', token, family };
    return { outcome: 'expired', family };
  }

  /** Revokes a family: its refresh tokens stop working and so do the access tokens from it. */
  async revokeFamily(familyId: string, reason: string, at: number): Promise<string[]> {
    await this.db('refresh_token_families')
      .where({ id: familyId })
      .whereNull('revoked_at')
      .update({ revoked_at: at, revoked_reason: reason });
    return this.revokeAccessTokensWhere({ refresh_family_id: familyId }, at);
  }

  /** Revokes everything issued from one authorization code (after the code was replayed). */
  async revokeIssuedFromCode(codeHash: string, reason: string, at: number): Promise<string[]> {
    const families: Array<{ id: string }> = await this.db('refresh_token_families')
      .where({ auth_code_hash: codeHash })
      .select('id');
    const revoked: string[] = [];
    for (const family of families)
      revoked.push(...(await this.revokeFamily(family.id, reason, at)));
    revoked.push(...(await this.revokeAccessTokensWhere({ auth_code_hash: codeHash }, at)));
    return revoked;
  }

  private async revokeAccessTokensWhere(
    where: Partial<AccessTokenRow>,
    at: number,
  ): Promise<string[]> {
    const rows: Array<{ jti: string }> = await this.db('access_tokens')
      .where(where)
      .whereNull('revoked_at')
      .select('jti');
    if (rows.length) {
      await this.db('access_tokens')
        .whereIn(
          'jti',
          rows.map((row) => row.jti),
        )
        .update({ revoked_at: at });
    }
    return rows.map((row) => row.jti);
  }
}

/** The tables of what a user grant issued, in the order its rows refer to each other. */
function issuedRowsByTable(rows: IssuedRows) {
  return [
    ...(rows.family ? ([['refresh_token_families', [rows.family]]] as const) : []),
    ...(rows.refreshToken ? ([['refresh_tokens', [rows.refreshToken]]] as const) : []),
    ['access_tokens', [rows.accessToken]],
    ['audit_events', [rows.audit]],
  ] as const;
}
