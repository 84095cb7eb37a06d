import assert from 'node:assert/strict';
import { systemClock } from '../../src/clock.js';
import { createTestDatabase, type TestDatabase } from '../support/databases.js';
import { createOAuthTenant, issueCode, type OAuthTenant } from '../support/oauth-fixtures.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import {
  blockWith,
  readmeSection,
  runInOneShell,
  serverEnvironment,
  shellBlocks,
} from './readme.js';

/**
 * The README's OAuth 2.0 commands, run as written in bash against a service of the test's own.
 * The one step a person does in a browser (sign in, allow, pick an employer) is replaced by
 * issuing the code the authorization endpoint would issue for the printed address.
 */
describe('README: OAuth 2.0 commands [sqlite]', function () {
  this.timeout(300_000);
  let database: TestDatabase & { dispose(): Promise<void> };
  let service: ServiceProcess;
  let tenant: OAuthTenant;
  const blocks = shellBlocks(readmeSection('OAuth 2.0'));
  // BASE and `field`, as the reader defined them in the first API call.
  const setup = blockWith(shellBlocks(readmeSection('First API call in five minutes')), 'field()');
  const shell = (commands: string[], env: Record<string, string> = {}) =>
    runInOneShell([setup, ...commands], {
      ...serverEnvironment(database, service),
      CLIENT_ID: tenant.app.client_id,
      CLIENT_SECRET: tenant.app.secret,
      EMPLOYER_ID: tenant.employer.id,
      ...env,
    }).then((outputs) => outputs.slice(1));

  before(async () => {
    database = await createTestDatabase('sqlite');
    service = await startServiceProcess(database);
    tenant = await createOAuthTenant(database.db, systemClock);
  });
  after(async () => {
    await service?.stop();
    await database?.dispose();
  });

  it('client credentials: lists the employers, then gets an employer token', async () => {
    const [output] = await shell([blockWith(blocks, 'grant_type=client_credentials')]);
    const [appinfo, employerToken] = output!.split('\n');
    assert.deepEqual(JSON.parse(appinfo!), {
      employers: [{ id: tenant.employer.id, name: tenant.employer.name }],
    });
    assert.equal(JSON.parse(employerToken!).scope, 'employer_access');
  });

  it('authorization code with PKCE: the pair, the address, the exchange and a refresh', async () => {
    const pkce = blockWith(blocks, 'CODE_CHALLENGE=');
    const [addressLine, verifier] = await shell([pkce, 'echo "$CODE_VERIFIER"']);
    const address = new URL(addressLine!);
    assert.equal(address.origin + address.pathname, `${service.url}/oauth/v2/authorize`);
    assert.equal(address.searchParams.get('client_id'), tenant.app.client_id);
    assert.equal(address.searchParams.get('redirect_uri'), 'http://localhost:8080/callback');
    assert.deepEqual(tenant.app.redirect_uris, ['http://localhost:8080/callback']);
    // The address opens the sign-in page (no session yet), not an error.
    assert.equal((await fetch(address)).status, 200);

    const code = await issueCode(database.db, systemClock, {
      app_id: tenant.app.id,
      user_id: tenant.user.id,
      scope: address.searchParams.get('scope')!.split(' ').sort().join(' '),
      code_challenge: address.searchParams.get('code_challenge'),
      code_challenge_method: 'S256',
      employer_id: tenant.employer.id,
    });
    const [exchanged, refreshed] = await shell(
      [
        blockWith(blocks, 'grant_type=authorization_code'),
        blockWith(blocks, 'grant_type=refresh_token'),
      ],
      { CODE: code, CODE_VERIFIER: verifier! },
    );
    const tokens = JSON.parse(exchanged!);
    assert.ok(tokens.access_token && tokens.refresh_token && tokens.id_token, exchanged);
    const [afterRefresh, userinfo] = refreshed!.split('\n');
    const rotated = JSON.parse(afterRefresh!);
    assert.ok(rotated.access_token, afterRefresh);
    assert.notEqual(rotated.refresh_token, tokens.refresh_token);
    assert.equal(JSON.parse(userinfo!).email, tenant.user.email);
  });
});
