import { randomBytes } from 'node:crypto';
import { ConsoleClient } from './console-client.js';
import { InterviewRequests, mutatedEvent, type ReportedEvent } from './interview-requests.js';
import { PASSWORD, type OAuthTenant } from './oauth-fixtures.js';
import { TokenRequests } from './token-requests.js';
import type { WriteLedger } from './write-ledger.js';

let sequence = 0;

/** An address nobody else in the run uses. */
export function uniqueEmail(label: string): string {
  sequence += 1;
  return `${label}-${sequence}-${randomBytes(3).toString('hex')}@example.com`;
}

/**
 * The writes a load sends, each as a client would (HTTP only), each recorded in the ledger:
 * attempted before it is sent, acknowledged when the answer says it happened. An answer that
 * says otherwise, or none at all (the process died), leaves it unacknowledged; the operation
 * then returns false or undefined and never throws for that reason.
 */
export class WriteLoad {
  /** Operations acknowledged, and operations that got no answer at all (the process died). */
  readonly counts = { acknowledged: 0, unanswered: 0 };
  private readonly tokens: TokenRequests;
  private readonly api: InterviewRequests;

  constructor(
    private readonly url: string,
    private readonly tenant: OAuthTenant,
    private readonly ledger: WriteLedger,
    /** An employer-scoped access token for the Interview API. */
    employerToken: string,
  ) {
    this.tokens = new TokenRequests(url, tenant.app);
    this.api = new InterviewRequests(url, employerToken);
  }

  /** A load on `url` with a fresh employer-scoped token of the tenant. */
  static async start(url: string, tenant: OAuthTenant, ledger: WriteLedger): Promise<WriteLoad> {
    const issued = await new TokenRequests(url, tenant.app).clientCredentials(tenant.employer.id);
    if (issued.status !== 200) throw new Error(`no employer token: ${issued.status}`);
    return new WriteLoad(url, tenant, ledger, issued.body.access_token);
  }

  issueToken(): Promise<boolean> {
    return this.answered(async () => {
      const issued = await this.tokens.clientCredentials(this.tenant.employer.id);
      if (issued.status !== 200) return false;
      this.ledger.accessTokens.push(issued.body.access_token);
      return true;
    });
  }

  /** Signs in on the partner console as the tenant's user; keeps the browser when it worked. */
  signIn(): Promise<boolean> {
    return this.answered(async () => {
      const browser = new ConsoleClient(this.url);
      const answer = await browser.submit('/console/sign-in', '/console/sign-in', {
        email: this.tenant.user.email,
        password: PASSWORD,
      });
      if (answer.status !== 303 || answer.headers.get('location') !== '/console') return false;
      this.ledger.sessions.push(browser);
      return true;
    });
  }

  refresh(refreshToken: string): Promise<boolean> {
    return this.answered(async () => {
      const refreshed = await this.tokens.refresh(refreshToken);
      if (refreshed.status !== 200) return false;
      this.ledger.refreshTokens.push(refreshed.body.refresh_token);
      this.ledger.accessTokens.push(refreshed.body.access_token);
      return true;
    });
  }

  /** Creates an event with `invited` interviewers besides the creator, and maybe an interviewee. */
  createEvent(invited: number, withInterviewee: boolean): Promise<ReportedEvent | undefined> {
    return this.answered(async () => {
      const emails = Array.from({ length: invited }, () => uniqueEmail('interviewer'));
      const event = mutatedEvent(
        await this.api.create({
          interviewers: emails,
          ...(withInterviewee && {
            interviewee: { name: 'Robin Applicant', email: uniqueEmail('interviewee') },
          }),
        }),
      );
      if (!event) return undefined;
      this.ledger.eventCreated(event.id, [this.tenant.user.email, ...emails], withInterviewee);
      return event;
    }, undefined);
  }

  addInterviewers(eventId: string, count: number): Promise<boolean> {
    return this.answered(async () => {
      const emails = Array.from({ length: count }, () => uniqueEmail('added'));
      this.ledger.interviewersAttempted(eventId, emails);
      if (!mutatedEvent(await this.api.addInterviewers(eventId, emails))) return false;
      this.ledger.interviewersAdded(eventId, emails);
      return true;
    });
  }

  /**
   * One round of interview work: an event with three invited interviewers, two more added; with
   * an interviewee, then its interview day on the lobby pages, else three more added.
   */
  async interviewRound(withInterviewee: boolean): Promise<void> {
    const event = await this.createEvent(3, withInterviewee);
    if (!event || !(await this.addInterviewers(event.id, 2))) return;
    if (withInterviewee) {
      await this.lobbyDay(event, event.interviewersConnection.interviewers[1]!.email);
    } else {
      await this.addInterviewers(event.id, 3);
    }
  }

  /**
   * Runs a client operation and counts it; no answer (a refused or reset connection) counts as
   * not done.
   */
  private async answered<T>(operation: () => Promise<T>, unanswered: T = false as T): Promise<T> {
    try {
      const result = await operation();
      if (result) this.counts.acknowledged += 1;
      return result;
    } catch (error) {
      if (!isConnectionFailure(error)) throw error;
      this.counts.unanswered += 1;
      return unanswered;
    }
  }

  /**
   * The interview day on the lobby pages: the interviewee checks in, an invited interviewer
   * identifies, admits them and ends the interview. Stops at the first step not acknowledged.
   */
  lobbyDay(event: ReportedEvent, interviewerEmail: string): Promise<boolean> {
    return this.answered(async () => {
      const intervieweePage = new URL(
        event.intervieweesConnection.interviewees[0]!.intervieweeLobbyUrl,
      ).pathname;
      const interviewerPage = new URL(event.interviewerLobbyUrl).pathname;
      const interviewee = new ConsoleClient(this.url);
      const interviewer = new ConsoleClient(this.url);

      this.ledger.progressAttempted(event.id, 'CHECKED_IN');
      if (!(await posted(interviewee, intervieweePage, 'check-in'))) return false;
      this.ledger.progressAcknowledged(event.id, 'CHECKED_IN');

      if (!(await posted(interviewer, interviewerPage, 'identify', { email: interviewerEmail }))) {
        return false;
      }
      this.ledger.progressAttempted(event.id, 'INTERVIEWING');
      if (!(await posted(interviewer, interviewerPage, 'admit'))) return false;
      this.ledger.progressAcknowledged(event.id, 'INTERVIEWING');

      this.ledger.progressAttempted(event.id, 'INTERVIEWED');
      if (!(await posted(interviewer, interviewerPage, 'end-interview', { confirmed: 'yes' }))) {
        return false;
      }
      this.ledger.progressAcknowledged(event.id, 'INTERVIEWED');
      return true;
    });
  }
}

/** Submits a lobby form; true when the step was taken (303 back to the page). */
async function posted(
  browser: ConsoleClient,
  page: string,
  step: string,
  fields: Record<string, string> = {},
): Promise<boolean> {
  const answer = await browser.submit(page, `${page}/${step}`, fields);
  return answer.status === 303 && answer.headers.get('location') === page;
}

/** No answer came: the connection was refused or reset, or the body was cut off. */
export function isConnectionFailure(error: unknown): boolean {
  // undici: "fetch failed" when no answer came, "terminated" when the body was cut off.
  return error instanceof TypeError && /fetch failed|terminated/.test(error.message);
}
