import { randomUUID } from 'node:crypto';
import { validateEmployerId } from '../../../generated/validators.cjs';
import type { AccountStore, EmployerMembership } from '../../accounts/account-store.js';
import type { AppStore } from '../../accounts/app-store.js';
import type { AuditLog, RequestOrigin } from '../../audit/audit-log.js';
import type { Clock } from '../../clock.js';
import type { BrowserSession } from '../../sessions/sessions.js';
import type { AuthorizationCodes } from '../authorization-codes.js';
import { hasScope } from '../scopes.js';
import {
  checkAuthorizationRequest,
  type AuthorizationRequest,
  type CheckedRequest,
} from './authorization-request.js';
import type { ConsentStore } from './consent-store.js';

/** What a signed-in user sees next for a valid authorization request. */
export type NextStep =
  | { step: 'consent' }
  | { step: 'select-employer'; employers: EmployerMembership[] }
  | { step: 'issue-code' };

/** The employer a user picked on the selection page: one of theirs, or none. */
export type EmployerChoice = { employerId: string | null };

export interface AuthorizationFlowDependencies {
  consents: ConsentStore;
  clock: Clock;
  accounts: AccountStore;
  apps: AppStore;
  codes: AuthorizationCodes;
  audit: AuditLog;
}

/**
 * The rules between sign-in and the code: remembered consent, the employer choice and the code
 * grant. It knows neither HTTP nor pages; the router renders what it decides.
 */
export class AuthorizationFlow {
  constructor(private readonly deps: AuthorizationFlowDependencies) {}

  /** Checks an authorization request's query string (client, redirect_uri, scopes, PKCE). */
  checkRequest(query: string): Promise<CheckedRequest> {
    return checkAuthorizationRequest(query, this.deps.apps);
  }

  async nextStep(request: AuthorizationRequest, session: BrowserSession): Promise<NextStep> {
    if (!(await this.deps.consents.has(session.userId, request.app.id, request.scope))) {
      return { step: 'consent' };
    }
    if (request.selectEmployer && hasScope(request.scope, 'employer_access')) {
      const employers = await this.employersOf(session.userId);
      if (employers.length > 0) return { step: 'select-employer', employers };
    }
    return { step: 'issue-code' };
  }

  /** Remembers the user's consent to this app and scope set, with its audit entry. */
  async grantConsent(
    request: AuthorizationRequest,
    session: BrowserSession,
    origin: RequestOrigin,
  ): Promise<void> {
    await this.deps.consents.inTransaction(async (consents, tx) => {
      await consents.remember({
        id: randomUUID(),
        user_id: session.userId,
        app_id: request.app.id,
        scope_set: request.scope,
        granted_at: this.deps.clock.now(),
      });
      await this.deps.audit.record(
        {
          type: 'consent.granted',
          actorUserId: session.userId,
          appId: request.app.id,
          ...origin,
          details: { scope: request.scope },
        },
        tx,
      );
    });
  }

  async denyConsent(request: AuthorizationRequest, session: BrowserSession, origin: RequestOrigin) {
    await this.deps.audit.record({
      type: 'consent.denied',
      actorUserId: session.userId,
      appId: request.app.id,
      ...origin,
      details: { scope: request.scope },
    });
  }

  /**
   * Reads the selection form's value: the empty string means "continue without an employer";
   * anything else must be an employer the user belongs to. Undefined means the choice is invalid.
   */
  async employerChoice(
    session: BrowserSession,
    submitted: string | undefined,
  ): Promise<EmployerChoice | undefined> {
    if (submitted === undefined) return undefined;
    if (submitted === '') return { employerId: null };
    if (!validateEmployerId(submitted)) return undefined;
    const membership = await this.deps.accounts.findMembership(session.userId, submitted);
    return membership ? { employerId: membership.employer_id } : undefined;
  }

  /** Stores a single-use code for the request and returns it (it appears only in the redirect). */
  issueCode(
    request: AuthorizationRequest,
    session: BrowserSession,
    choice: EmployerChoice = { employerId: null },
  ): Promise<string> {
    return this.deps.codes.issue({
      app_id: request.app.id,
      user_id: session.userId,
      redirect_uri: request.redirectUri,
      scope: request.scope,
      code_challenge: request.codeChallenge,
      code_challenge_method: request.codeChallengeMethod,
      nonce: request.nonce,
      employer_id: choice.employerId,
      auth_time: session.createdAt,
    });
  }

  /** The employers the user belongs to, each with the user's role, ordered by name. */
  employersOf(userId: string): Promise<EmployerMembership[]> {
    return this.deps.accounts.listEmployersOfUser(userId);
  }
}
