import { randomBytes } from 'node:crypto';
import { createCliServices } from '../src/cli/services.js';
import { systemClock } from '../src/clock.js';
import { loadConfig } from '../src/config.js';
import type { Database } from '../src/db/database.js';
import { AuthorizationCodeStore } from '../src/oauth/authorization-code-store.js';
import { AuthorizationCodes } from '../src/oauth/authorization-codes.js';
import { createSharedDependencies, type SharedDependencies } from '../src/shared-dependencies.js';
import { silentLogger } from './database.js';

export const REDIRECT_URI = 'http://localhost:8080/callback';
/** What the bench's authorization codes grant: a refresh token, employers, the email claim. */
const CODE_SCOPE = 'email employer_access offline_access openid';

export interface BenchApp {
  id: string;
  clientId: string;
  clientSecret: string;
}

/** Who the benchmark acts as, created through the same services as the CLI's. */
export interface BenchAccounts {
  owner: { id: string; email: string; name: string };
  app: BenchApp;
  employers: {
    /** The employer whose events are listed and counted (P2, P3). */
    measured: string;
    /** Where createVirtualInterviewEvent writes, so that the measured employer keeps its size. */
    writes: string;
    /** Another partner's employer, whose events share the tables. */
    other: string;
  };
  otherOwner: { id: string; email: string; name: string };
  otherApp: { id: string };
}

/**
 * The in-process side of the harness: the shared dependencies (with the KEY_ENCRYPTION_SECRET the
 * service runs with, so that secrets seal and hash the way the service checks them).
 */
export function benchDependencies(db: Database, keyEncryptionSecret: string): SharedDependencies {
  const config = loadConfig({ KEY_ENCRYPTION_SECRET: keyEncryptionSecret, LOG_LEVEL: 'silent' });
  return createSharedDependencies({
    db,
    clock: systemClock,
    logger: silentLogger,
    config,
    keyEncryptionSecret,
  });
}

/** Users, employers and apps, made by the real services (hashing, sealing, auditing). */
export async function createBenchAccounts(shared: SharedDependencies): Promise<BenchAccounts> {
  const { accounts, apps } = createCliServices(shared);
  const password = () => randomBytes(12).toString('base64url');
  const name = 'Bench Owner';
  const owner = await accounts.createUser({
    email: 'bench-owner@example.com',
    password: password(),
    name,
  });
  const otherOwner = await accounts.createUser({
    email: 'other-owner@example.com',
    password: password(),
    name: 'Other Owner',
  });
  const employer = async (employerName: string, memberEmail: string) =>
    (await accounts.createEmployer({ name: employerName, memberEmails: [memberEmail] })).employer
      .id;
  const created = await apps.createApp({
    ownerEmail: owner.email,
    name: 'Bench App',
    redirectUris: [REDIRECT_URI],
  });
  const other = await apps.createApp({ ownerEmail: otherOwner.email, name: 'Other App' });
  if (!created.clientSecret) throw new Error('the bench app was created without a client secret');
  return {
    owner: { id: owner.id, email: owner.email, name },
    app: {
      id: created.app.id,
      clientId: created.app.client_id,
      clientSecret: created.clientSecret,
    },
    employers: {
      measured: await employer('Bench Measured Employer', owner.email),
      writes: await employer('Bench Writes Employer', owner.email),
      other: await employer('Other Employer', otherOwner.email),
    },
    otherOwner: { id: otherOwner.id, email: otherOwner.email, name: 'Other Owner' },
    otherApp: { id: other.app.id },
  };
}

/** An authorization code for the bench user and app, issued as the authorization pages do. */
export function issueAuthorizationCode(
  shared: SharedDependencies,
  accounts: BenchAccounts,
): Promise<string> {
  const codes = new AuthorizationCodes(new AuthorizationCodeStore(shared.db), shared.clock);
  return codes.issue({
    app_id: accounts.app.id,
    user_id: accounts.owner.id,
    redirect_uri: REDIRECT_URI,
    scope: CODE_SCOPE,
    code_challenge: null,
    code_challenge_method: null,
    nonce: null,
    employer_id: null,
    auth_time: shared.clock.now(),
  });
}
