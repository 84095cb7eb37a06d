import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { browserSession } from '../support/browser.js';
import { basic, callApi } from '../support/oauth-fixtures.js';

const PASSWORD = 'correct horse battery staple';

/** An employer-scoped client-credentials token request, as a partner's server would send it. */
function employerToken(baseUrl: string, clientId: string, secret: string, employer: string) {
  return callApi(baseUrl, 'POST', '/oauth/v2/tokens', {
    form: { grant_type: 'client_credentials', scope: 'employer_access', employer },
    headers: basic(clientId, secret),
  });
}

describe('partner console journey in Chromium: employer, app, token, appinfo [sqlite]', function () {
  const session = browserSession('journey');

  it('uses only what the pages show to get an employer token and read appinfo', async () => {
    const { page, screenshot } = session;
    const base = session.url;
    const email = `journey-${randomBytes(4).toString('hex')}@example.com`;

    await page.goto(`${base}/console/sign-up`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Name').fill('Jo Journey');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('status').filter({ hasText: 'Check your email' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Your apps' }).waitFor();
    await screenshot('dashboard');

    await page
      .getByRole('navigation', { name: 'Console sections' })
      .getByRole('link', { name: 'Employers' })
      .click();
    await page.getByRole('heading', { name: 'Employers', exact: true }).waitFor();
    assert.ok(await page.getByText('appinfo lists exactly these').isVisible());
    await page.getByLabel('Employer name').fill('Northwind Hiring');
    await page.getByRole('button', { name: 'Create employer' }).click();
    await page.getByRole('heading', { name: 'Northwind Hiring' }).waitFor();
    const employerId = (await page.locator('#employer-id').innerText()).trim();
    assert.match(employerId, /^[0-9a-f-]{36}$/);
    assert.ok(await page.getByRole('cell', { name: 'Admin' }).isVisible());
    await screenshot('employer-detail');

    await page.getByRole('link', { name: 'All employers' }).click();
    await page.getByRole('link', { name: 'Northwind Hiring' }).waitFor();
    assert.ok(await page.getByText(employerId).isVisible());
    await screenshot('employers');

    await page.getByRole('link', { name: 'Apps', exact: true }).click();
    await page.getByRole('link', { name: 'Register an app' }).click();
    await page.getByLabel('App name').fill('Journey Sync');
    await page.getByLabel(/^Confidential/).check();
    await page.getByLabel('Redirect URL 1').fill('https://journey.example.com/oauth/callback');
    await page.getByLabel('Redirect URL 2').fill('http://localhost:8080/callback');
    await page.getByRole('button', { name: 'Register app' }).click();

    await page.locator('#client-secret').waitFor();
    const clientId = (await page.locator('#client-id').innerText()).trim();
    const secret = (await page.locator('#client-secret').innerText()).trim();
    assert.match(clientId, /^[0-9a-f]{32}$/);
    assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
    await screenshot('credentials');

    const issued = await employerToken(base, clientId, secret, employerId);
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    assert.equal(issued.body.scope, 'employer_access');
    const info = await callApi(base, 'GET', '/v2/api/appinfo', {
      headers: { authorization: `Bearer ${issued.body.access_token}` },
    });
    assert.equal(info.status, 200);
    assert.deepEqual(info.body, { employers: [{ id: employerId, name: 'Northwind Hiring' }] });

    await page.getByRole('link', { name: 'Rotate secret…' }).click();
    await page.getByText('apps using it will fail until updated').waitFor();
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByText('Secret rotated.').waitFor();
    const rotated = (await page.locator('#client-secret').innerText()).trim();
    assert.notEqual(rotated, secret);
    await screenshot('credentials-rotated');

    const old = await employerToken(base, clientId, secret, employerId);
    assert.equal(old.status, 401);
    assert.equal(old.body.error, 'invalid_client');
    const renewed = await employerToken(base, clientId, rotated, employerId);
    assert.equal(renewed.status, 200);
    const again = await callApi(base, 'GET', '/v2/api/appinfo', {
      headers: { authorization: `Bearer ${renewed.body.access_token}` },
    });
    assert.deepEqual(again.body, { employers: [{ id: employerId, name: 'Northwind Hiring' }] });
  });
});
