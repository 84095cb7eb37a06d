import { validateEmployerId } from '../../../generated/validators.cjs';
import type { AccountStore } from '../../accounts/account-store.js';
import type { AuditEntry, AuditLog } from '../../audit/audit-log.js';
import { isForeignKeyViolation } from '../../db/errors.js';
import type { AppRow } from '../../db/rows.js';
import { NotFoundError } from '../../errors.js';
import { EXPLORER_TOKEN_TTL_SECONDS } from './lifetimes.js';
import type { TokenSigner } from './token-signer.js';
import type { TokenStore } from './token-store.js';

/** The scope of an explorer token: what client credentials with `employer` would grant. */
const EXPLORER_SCOPE = 'employer_access';

export interface ExplorerToken {
  accessToken: string;
  /** Epoch milliseconds. */
  expiresAt: number;
}

/**
 * Access tokens the partner console issues for its API explorer: the token an app would get
 * from client credentials with `employer` (`sub` is `app:<client_id>`, scope employer_access),
 * but living 15 minutes, and only for the app's owner and an employer that owner belongs to.
 * The token row and the audit entry ("explorer token issued", without the token) commit
 * together.
 */
export class ExplorerTokens {
  constructor(
    private readonly deps: {
      signer: TokenSigner;
      tokens: TokenStore;
      accounts: AccountStore;
      audit: AuditLog;
    },
  ) {}

  async issue(request: {
    userId: string;
    app: AppRow;
    employerId: string;
    ip?: string | null;
    requestId?: string | null;
  }): Promise<ExplorerToken> {
    const { userId, app, employerId } = request;
    if (app.owner_user_id !== userId) throw new NotFoundError('no such app', 'client_id');
    // An id no employer can have is not looked up.
    const member =
      validateEmployerId(employerId) &&
      (await this.deps.accounts.findMembership(userId, employerId));
    if (!member) {
      throw new NotFoundError('no such employer', 'employer');
    }
    const signed = await this.deps.signer.accessToken(
      {
        sub: `app:${app.client_id}`,
        azp: app.client_id,
        scope: EXPLORER_SCOPE,
        app_account: app.owner_user_id,
        emp: employerId,
      },
      EXPLORER_TOKEN_TTL_SECONDS,
    );
    const entry: AuditEntry = {
      type: 'explorer_token.issued',
      actorUserId: userId,
      appId: app.id,
      employerId,
      ip: request.ip ?? null,
      requestId: request.requestId ?? null,
      details: { client_id: app.client_id, employer: employerId, scope: EXPLORER_SCOPE },
    };
    const record = {
      jti: signed.jti,
      app_id: app.id,
      user_id: null,
      employer_id: employerId,
      scope: EXPLORER_SCOPE,
      auth_code_hash: null,
      refresh_family_id: null,
      issued_at: signed.issuedAt,
      expires_at: signed.expiresAt,
      revoked_at: null,
    };
    try {
      await this.deps.tokens.insertIssuedAccessToken(record, this.deps.audit.row(entry), undefined);
    } catch (error) {
      // The app was deleted (or the membership removed with its employer) a moment ago.
      if (isForeignKeyViolation(error)) throw new NotFoundError('no such app', 'client_id');
      throw error;
    }
    this.deps.audit.announce(entry);
    return { accessToken: signed.token, expiresAt: signed.expiresAt };
  }
}
