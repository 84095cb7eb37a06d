import type { Database } from '../../src/db/database.js';
import { sha256Hex } from '../../src/security/random.js';
import { runConcurrently } from './concurrency.js';
import { InterviewRequests } from './interview-requests.js';
import type { OAuthTenant } from './oauth-fixtures.js';
import { TokenRequests, jtiOf } from './token-requests.js';
import { INTERVIEWEE_PROGRESS, type WriteLedger } from './write-ledger.js';

export interface LedgerReport {
  acknowledged: Record<string, number>;
  found: Record<string, number>;
  /** One line per acknowledged write that is missing or incomplete. */
  problems: string[];
}

/**
 * Looks for every write in the ledger: tokens and refresh tokens in the database (unrevoked,
 * unspent), sessions by signing in with their cookies, events through the Interview API of the
 * running service (with every acknowledged interviewer, none that was never asked for, and the
 * interviewee at least as far as acknowledged and no further than attempted).
 */
export async function checkLedger(
  ledger: WriteLedger,
  service: { url: string; db: Database; tenant: OAuthTenant },
): Promise<LedgerReport> {
  const problems: string[] = [];
  const found: Record<string, number> = {};

  const jtis = ledger.accessTokens.map(jtiOf);
  const liveJtis = await existing(service.db, 'access_tokens', 'jti', jtis, (q) =>
    q.whereNull('revoked_at'),
  );
  found.accessTokens = liveJtis.size;
  for (const jti of jtis) if (!liveJtis.has(jti)) problems.push(`access token ${jti} is missing`);

  const hashes = ledger.refreshTokens.map((token) => sha256Hex(token));
  const liveHashes = await existing(service.db, 'refresh_tokens', 'token_hash', hashes, (q) =>
    q.whereNull('consumed_at'),
  );
  found.refreshTokens = liveHashes.size;
  for (const hash of hashes) {
    if (!liveHashes.has(hash)) problems.push(`refresh token ${hash} is missing or spent`);
  }

  const sessionChecks = await runConcurrently(ledger.sessions.length, 8, async (i) => {
    const page = await ledger.sessions[i]!.get('/console');
    return page.status === 200;
  });
  found.sessions = sessionChecks.filter((c) => c.status === 'fulfilled' && c.value).length;
  if (found.sessions !== ledger.sessions.length) {
    problems.push(`${ledger.sessions.length - found.sessions} signed-in sessions are gone`);
  }

  Object.assign(found, await checkEvents(ledger, service, problems));
  return { acknowledged: ledger.acknowledgedCounts(), found, problems };
}

async function checkEvents(
  ledger: WriteLedger,
  service: { url: string; tenant: OAuthTenant },
  problems: string[],
): Promise<Record<string, number>> {
  const found = { events: 0, interviewers: 0, lobbySteps: 0 };
  if (!ledger.events.size) return found;
  const issued = await new TokenRequests(service.url, service.tenant.app).clientCredentials(
    service.tenant.employer.id,
  );
  if (issued.status !== 200) throw new Error(`no employer token: ${issued.status}`);
  const api = new InterviewRequests(service.url, issued.body.access_token);
  const ids = [...ledger.events.keys()];
  for (let start = 0; start < ids.length; start += 100) {
    const batch = ids.slice(start, start + 100);
    const events = await api.read(batch);
    batch.forEach((id, i) => {
      const expected = ledger.events.get(id)!;
      const event = events[i];
      if (!event) return problems.push(`event ${id} is missing`);
      found.events += 1;
      const emails = new Set(
        event.interviewersConnection.interviewers.map((one) => one.email.toLowerCase()),
      );
      for (const email of expected.acknowledgedInterviewers) {
        if (emails.has(email)) found.interviewers += 1;
        else problems.push(`event ${id} lost interviewer ${email}`);
      }
      for (const email of emails) {
        if (!expected.attemptedInterviewers.has(email)) {
          problems.push(`event ${id} has interviewer ${email} nobody asked for`);
        }
      }
      const interviewee = event.intervieweesConnection.interviewees[0];
      if (expected.hasInterviewee !== Boolean(interviewee)) {
        return problems.push(
          `event ${id} ${interviewee ? 'has an unexpected' : 'lost its'} interviewee`,
        );
      }
      if (!interviewee) return;
      const progress = INTERVIEWEE_PROGRESS.indexOf(interviewee.status as never);
      if (progress < expected.acknowledgedProgress || progress > expected.attemptedProgress) {
        problems.push(
          `event ${id}: interviewee is ${interviewee.status}, acknowledged ` +
            `${INTERVIEWEE_PROGRESS[expected.acknowledgedProgress]}, attempted up to ` +
            `${INTERVIEWEE_PROGRESS[expected.attemptedProgress]}`,
        );
      } else {
        found.lobbySteps += expected.acknowledgedProgress;
      }
    });
  }
  return found;
}

/** Which of `values` are in `table.column` (and match `where`), asked for in batches. */
async function existing(
  db: Database,
  table: string,
  column: string,
  values: string[],
  where: (query: ReturnType<Database>) => ReturnType<Database>,
): Promise<Set<string>> {
  const present = new Set<string>();
  for (let start = 0; start < values.length; start += 500) {
    const rows: Array<Record<string, string>> = await where(
      db(table).whereIn(column, values.slice(start, start + 500)),
    ).select(column);
    for (const row of rows) present.add(row[column]!);
  }
  return present;
}
