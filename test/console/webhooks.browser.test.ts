import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { browserSession, captureBothWidths } from '../support/browser.js';

const PASSWORD = 'correct horse battery staple';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on loopback that answers 204 to everything and keeps what it got. */
async function startReceiver(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/hooks`, received };
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (!(await condition())) {
    assert.ok(Date.now() < deadline, `gave up waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function verified(secret: string, delivery: Received): unknown {
  const headers = Object.fromEntries(
    ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [
      name,
      String(delivery.headers[name]),
    ]),
  );
  return new Webhook(secret).verify(delivery.body, headers);
}

describe('console Webhooks tab in Chromium [sqlite]', function () {
  const session = browserSession('webhooks', { WEBHOOK_DELIVERY_WORKER: 'on' });
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  before(async () => {
    receiver = await startReceiver();
  });
  after(async () => {
    // Undefined when the suite was skipped (no Chromium).
    if (!receiver) return;
    receiver.server.closeAllConnections();
    await new Promise((resolve) => receiver.server.close(resolve));
  });

  it('adds an endpoint, shows its secret once, sends a test event and rotates the secret', async () => {
    const { page } = session;
    const email = `hooks-${randomBytes(4).toString('hex')}@example.com`;
    await page.goto(`${session.url}/console/sign-up`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Name').fill('Hook Partner');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('status').filter({ hasText: 'Check your email' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Your apps' }).waitFor();

    await page.getByRole('link', { name: 'Employers', exact: true }).first().click();
    await page.getByLabel('Employer name').fill('Northwind Hiring');
    await page.getByRole('button', { name: 'Create employer' }).click();
    await page.getByRole('heading', { name: 'Northwind Hiring' }).waitFor();

    await page.getByRole('link', { name: 'Apps', exact: true }).click();
    await page.getByRole('link', { name: 'Register an app' }).click();
    await page.getByLabel('App name').fill('Interview Sync');
    await page.getByLabel(/^Confidential/).check();
    await page.getByLabel('Redirect URL 1').fill('https://sync.example.com/oauth/callback');
    await page.getByRole('button', { name: 'Register app' }).click();
    await page.getByRole('heading', { name: 'Interview Sync' }).waitFor();

    const tabs = page.getByRole('navigation', { name: 'App sections' });
    await tabs.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Add an endpoint' }).waitFor();
    await captureBothWidths(page, 'webhooks', 'empty');

    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByLabel('Description').fill('Applicant tracking system');
    await page.getByLabel('interview.interviewee.checked_in.v1').check();
    await page.getByLabel('interview.event.ended.v1').check();
    await page.getByLabel('interview.decision.recorded.v1').check();
    await page.getByLabel('Northwind Hiring').check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();

    await page.getByRole('status').filter({ hasText: 'Endpoint added' }).waitFor();
    const secret = (await page.locator('#webhook-secret').innerText()).trim();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.ok(!page.url().includes(secret));
    await captureBothWidths(page, 'webhooks', 'secret-once');
    const endpointPage = page.url();
    await page.reload();
    assert.equal(await page.locator('#webhook-secret').count(), 0, 'the secret is shown once');

    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('status').filter({ hasText: 'Test event queued' }).waitFor();
    const log = page.locator('table.webhook-deliveries tbody tr');
    assert.equal(await log.count(), 1);
    assert.match(await log.first().innerText(), /webhook\.test\.v1/);

    await until(() => receiver.received.length >= 1, 'the test event at the receiver');
    const [first] = receiver.received;
    const event = verified(secret, first!) as { type: string; data: Record<string, unknown> };
    assert.equal(event.type, 'webhook.test.v1');
    await until(async () => {
      await page.reload();
      return /Delivered/.test(await log.first().innerText());
    }, 'the delivery log to say Delivered');
    await captureBothWidths(page, 'webhooks', 'delivery-log');

    await log
      .first()
      .getByRole('link', { name: /Attempts/ })
      .click();
    await page.getByRole('heading', { name: /Delivery \d+/ }).waitFor();
    await captureBothWidths(page, 'webhooks', 'delivery');
    await page.getByRole('button', { name: 'Resend' }).click();
    await page.getByRole('status').filter({ hasText: 'same webhook-id' }).waitFor();
    await until(() => receiver.received.length >= 2, 'the resent test event');
    const [original, again] = receiver.received;
    assert.equal(again!.headers['webhook-id'], original!.headers['webhook-id']);
    verified(secret, again!);

    await page.goto(endpointPage);
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('status').filter({ hasText: 'Signing secret rotated' }).waitFor();
    const rotated = (await page.locator('#webhook-secret').innerText()).trim();
    assert.match(rotated, /^whsec_/);
    assert.notEqual(rotated, secret);
    assert.match(
      await page.locator('.credentials').innerText(),
      /previous secret also signs until/,
    );
    await captureBothWidths(page, 'webhooks', 'rotated');
    const before = receiver.received.length;
    await page.getByRole('button', { name: 'Send test event' }).click();
    await until(() => receiver.received.length > before, 'a test event after the rotation');
    const latest = receiver.received.at(-1)!;
    // Both secrets sign during the overlap: receivers on either verify it.
    verified(rotated, latest);
    verified(secret, latest);

    await tabs.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('link', { name: receiver.url }).waitFor();
    await captureBothWidths(page, 'webhooks', 'list');
    await tabs.getByRole('link', { name: 'Activity' }).click();
    await page.getByText('Webhook signing secret rotated').waitFor();
  });
});
