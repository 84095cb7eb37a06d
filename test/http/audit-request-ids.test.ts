import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { ManualClock } from '../../src/clock.js';
import { describeEachDialect } from '../support/databases.js';
import {
  REDIRECT_URI,
  basic,
  createOAuthTenant,
  issueCode,
  type OAuthTenant,
} from '../support/oauth-fixtures.js';
import { startTestService } from '../support/service.js';

/**
 * The request id travels with the request explicitly (no AsyncLocalStorage): the audit rows a
 * request causes still carry it, on the fast listener's routes and on Express's alike.
 */
describeEachDialect('audit entries name the request that caused them', (database) => {
  const clock = new ManualClock(Date.UTC(2026, 10, 26, 12));
  let service: Awaited<ReturnType<typeof startTestService>>;
  let express: Awaited<ReturnType<typeof startTestService>>;
  let tenant: OAuthTenant;

  before(async () => {
    service = await startTestService(database(), { clock });
    express = await startTestService(database(), { clock, fastRoutes: false });
    tenant = await createOAuthTenant(database().db, clock, 'audited');
  });
  after(async () => {
    await service?.stop();
    await express?.stop();
  });

  const post = (url: string, path: string, requestId: string, body: string) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: {
        ...basic(tenant.app.client_id, tenant.app.secret),
        'content-type': 'application/x-www-form-urlencoded',
        'x-request-id': requestId,
      },
      body,
    });

  const auditedTypes = async (requestId: string) =>
    database()
      .db('audit_events')
      .where({ request_id: requestId })
      .orderBy('id')
      .pluck<string[]>('type');

  for (const [label, url] of [
    ['fast listener', () => service.url],
    ['Express', () => express.url],
  ] as const) {
    it(`records the token request's and the revocation's ids (${label})`, async () => {
      const issuing = `issue-${randomUUID()}`;
      const issued = await post(
        url(),
        '/oauth/v2/tokens',
        issuing,
        'grant_type=client_credentials',
      );
      assert.equal(issued.status, 200);
      const { access_token: token } = (await issued.json()) as { access_token: string };
      assert.deepEqual(await auditedTypes(issuing), ['token.issued']);

      const revoking = `revoke-${randomUUID()}`;
      const revoked = await post(url(), '/oauth/v2/revoke', revoking, `token=${token}`);
      assert.equal(revoked.status, 200);
      assert.deepEqual(await auditedTypes(revoking), ['token.revoked']);
    });
  }

  it('records the ids of a code exchange, a refresh and the replay that revoked its family', async () => {
    const code = await issueCode(database().db, clock, {
      app_id: tenant.app.id,
      user_id: tenant.user.id,
    });
    const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    const exchanging = `exchange-${randomUUID()}`;
    const exchanged = await post(
      service.url,
      '/oauth/v2/tokens',
      exchanging,
      form({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI }),
    );
    assert.equal(exchanged.status, 200);
    const { refresh_token: refreshToken } = (await exchanged.json()) as { refresh_token: string };
    assert.deepEqual(await auditedTypes(exchanging), ['token.issued']);

    const refresh = form({ grant_type: 'refresh_token', refresh_token: refreshToken });
    const refreshing = `refresh-${randomUUID()}`;
    assert.equal((await post(service.url, '/oauth/v2/tokens', refreshing, refresh)).status, 200);
    assert.deepEqual(await auditedTypes(refreshing), ['token.issued']);

    const replaying = `replay-${randomUUID()}`;
    assert.equal((await post(service.url, '/oauth/v2/tokens', replaying, refresh)).status, 400);
    assert.deepEqual(await auditedTypes(replaying), ['refresh_token.reused']);
  });
});
