import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { browserSession } from '../support/browser.js';
import { basic, callApi } from '../support/oauth-fixtures.js';

const PASSWORD = 'correct horse battery staple';

function clientCredentials(baseUrl: string, clientId: string, secret: string) {
  return callApi(baseUrl, 'POST', '/oauth/v2/tokens', {
    form: { grant_type: 'client_credentials' },
    headers: basic(clientId, secret),
  });
}

describe('partner console in Chromium [sqlite]', function () {
  const session = browserSession('console');

  it('signs up, registers an app, uses its credentials and rotates the secret', async () => {
    const { page, screenshot } = session;
    const base = session.url;
    const email = `ada-${randomBytes(4).toString('hex')}@example.com`;

    await page.goto(`${base}/console/sign-in`);
    await screenshot('sign-in');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Name').fill('Ada Partner');
    await screenshot('sign-up');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('status').filter({ hasText: 'Check your email' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.getByRole('heading', { name: 'Your apps' }).waitFor();
    assert.ok(await page.getByText(email).isVisible());
    await screenshot('dashboard-empty');

    await page.getByRole('link', { name: 'Register an app' }).click();
    await page.getByLabel('App name').fill('Interview Sync');
    await page.getByLabel(/^Confidential/).check();
    await page.getByLabel('Redirect URL 1').fill('https://sync.example.com/oauth/callback');
    await page.getByLabel('Redirect URL 2').fill('http://localhost:8080/callback');
    await screenshot('register-app');
    await page.getByRole('button', { name: 'Register app' }).click();

    await page.getByRole('heading', { name: 'Interview Sync' }).waitFor();
    const clientId = (await page.locator('#client-id').innerText()).trim();
    const secret = (await page.locator('#client-secret').innerText()).trim();
    assert.match(clientId, /^[0-9a-f]{32}$/);
    assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
    assert.ok(!page.url().includes(secret));
    await screenshot('credentials-new-secret');

    const issued = await clientCredentials(base, clientId, secret);
    assert.equal(issued.status, 200);
    assert.equal(issued.body.token_type, 'Bearer');

    await page.reload();
    assert.match(await page.locator('#client-secret').innerText(), /^•+$/);
    assert.equal(await page.getByText(secret).count(), 0);
    await screenshot('credentials-masked');

    await page.getByRole('link', { name: 'Rotate secret…' }).click();
    await page.getByText('apps using it will fail until updated').waitFor();
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByText('Secret rotated.').waitFor();
    const rotated = (await page.locator('#client-secret').innerText()).trim();
    assert.match(rotated, /^[A-Za-z0-9_-]{43}$/);
    assert.notEqual(rotated, secret);
    await screenshot('credentials-rotated');

    assert.equal((await clientCredentials(base, clientId, secret)).status, 401);
    assert.equal((await clientCredentials(base, clientId, rotated)).status, 200);

    await page.getByRole('link', { name: 'Your apps' }).click();
    await page.getByRole('link', { name: 'Interview Sync' }).waitFor();
    assert.ok(await page.getByText(clientId).isVisible());
    await screenshot('dashboard');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in to the partner console' }).waitFor();
  });
});
