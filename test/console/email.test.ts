import assert from 'node:assert/strict';
import { ManualClock } from '../../src/clock.js';
import { testAccounts } from '../support/compose.js';
import { ConsoleClient, formCsrfToken, locationOf } from '../support/console-client.js';
import { describeEachDialect } from '../support/databases.js';
import { REDIRECT_URI, basic, callApi, issueCode } from '../support/oauth-fixtures.js';
import { startTestService } from '../support/service.js';
import { SmtpInbox } from '../support/smtp-inbox.js';

const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a brand new passphrase';
const HOUR = 60 * 60 * 1000;

let sequence = 0;
function uniqueEmail(label: string): string {
  sequence += 1;
  return `${label}-${sequence}-${Date.now()}@example.com`;
}

function linkTo(mail: { links: string[] }, page: 'verify-email' | 'reset-password'): string {
  const link = mail.links.find((candidate) => candidate.includes(`/console/${page}/`));
  assert.ok(link, `no ${page} link in ${JSON.stringify(mail.links)}`);
  return link;
}

describeEachDialect('email verification and password reset over SMTP', (database) => {
  const clock = new ManualClock(Date.UTC(2026, 2, 2, 9));
  let inbox: SmtpInbox;
  let service: Awaited<ReturnType<typeof startTestService>>;

  before(async () => {
    inbox = await SmtpInbox.start();
    service = await startTestService(database(), {
      clock,
      env: { SMTP_URL: inbox.url, RATE_LIMIT_SIGN_IN_MAX: '1000' },
    });
  });
  after(async () => {
    await service?.stop();
    await inbox?.close();
  });

  const db = () => database().db;
  const userRow = (email: string) =>
    db()('users').where({ email_normalized: email.toLowerCase() }).first();

  async function signUp(email: string): Promise<ConsoleClient> {
    const client = new ConsoleClient(service.url);
    await client.signUp(email, PASSWORD);
    return client;
  }

  async function signIn(email: string, password: string) {
    const client = new ConsoleClient(service.url);
    const response = await client.submit('/console/sign-in', '/console/sign-in', {
      email,
      password,
    });
    return { client, response };
  }

  /** email_verified in the ID token and in userinfo, for a code issued to an app of the user. */
  async function emailVerifiedClaims(email: string) {
    const user = await userRow(email);
    const { apps } = testAccounts(db(), clock);
    const { app, clientSecret } = await apps.createApp({
      ownerEmail: email,
      name: `App ${sequence}`,
      redirectUris: [REDIRECT_URI],
    });
    const code = await issueCode(db(), clock, { app_id: app.id, user_id: user.id });
    const tokens = await callApi(service.url, 'POST', '/oauth/v2/tokens', {
      form: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI },
      headers: basic(app.client_id, clientSecret!),
    });
    assert.equal(tokens.status, 200);
    const [, payload] = tokens.body.id_token.split('.');
    const idToken = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const info = await callApi(service.url, 'GET', '/v2/api/userinfo', {
      headers: { authorization: `Bearer ${tokens.body.access_token}` },
    });
    assert.equal(info.status, 200);
    return { idToken: idToken.email_verified, userinfo: info.body.email_verified };
  }

  async function requestReset(email: string) {
    return new ConsoleClient(service.url).submit(
      '/console/forgot-password',
      '/console/forgot-password',
      { email },
    );
  }

  it('mails a verification link at sign-up; opening it makes email_verified true', async () => {
    const email = uniqueEmail('verify');
    const client = await signUp(email);
    const mail = await inbox.waitFor(email);
    assert.equal(mail.subject, 'Verify your email address');
    const link = linkTo(mail, 'verify-email');
    assert.ok(link.startsWith(`${service.config.authUrl}/console/verify-email/`));

    const dashboard = await client.get('/console');
    assert.match(dashboard.body, /Verify your email address/);
    assert.match(dashboard.body, /Send the link again/);
    assert.deepEqual(await emailVerifiedClaims(email), { idToken: false, userinfo: false });

    const opened = await client.get(link);
    assert.equal(opened.status, 200);
    assert.match(opened.body, /Your email address is verified/);
    const user = await userRow(email);
    assert.ok(user.email_verified);
    assert.equal(Number(user.email_verified_at), clock.now());
    assert.doesNotMatch((await client.get('/console')).body, /Send the link again/);
    assert.deepEqual(await emailVerifiedClaims(email), { idToken: true, userinfo: true });

    const again = await client.get(link);
    assert.equal(again.status, 410);
    assert.match(again.body, /This link has already been used/);
    const audit = await db()('audit_events').where({ actor_user_id: user.id }).select('type');
    const types = audit.map((row: { type: string }) => row.type);
    assert.ok(types.includes('email.verification_sent') && types.includes('email.verified'));
    const stored = await db()('email_tokens').where({ user_id: user.id });
    assert.ok(stored.every((row: { id_hash: string }) => !link.includes(row.id_hash)));
  });

  it('refuses a verification link after 24 hours, and a made-up one', async () => {
    const email = uniqueEmail('late');
    const client = await signUp(email);
    const link = linkTo(await inbox.waitFor(email), 'verify-email');
    clock.advance(24 * HOUR + 1000);
    const late = await client.get(link);
    assert.equal(late.status, 410);
    assert.match(late.body, /This link has expired/);
    assert.ok(!(await userRow(email)).email_verified);
    const madeUp = await client.get(`/console/verify-email/${'x'.repeat(43)}`);
    assert.equal(madeUp.status, 404);
    assert.match(madeUp.body, /This link is not valid/);
  });

  it('sends the verification link again from the notice', async () => {
    const email = uniqueEmail('resend');
    const client = await signUp(email);
    await inbox.waitFor(email);
    const dashboard = await client.get('/console');
    const resent = await client.post('/console/email-verification', {
      csrf_token: formCsrfToken(dashboard.body, '/console/email-verification'),
    });
    assert.equal(resent.status, 303);
    assert.equal(locationOf(resent), '/console/email-verification/sent');
    const second = await inbox.waitFor(email, 2);
    assert.equal((await client.get(linkTo(second, 'verify-email'))).status, 200);
  });

  it('answers every reset request alike and mails only an address with an account', async () => {
    const email = uniqueEmail('forgot');
    await signUp(email);
    await inbox.waitFor(email);
    const unknown = uniqueEmail('nobody');

    const forUnknown = await requestReset(unknown);
    const forKnown = await requestReset(email.toUpperCase());
    assert.equal(forUnknown.status, 200);
    assert.equal(forKnown.status, 200);
    // The same page but for the request id it shows.
    const answer = (body: string) =>
      /<main[\s\S]*<\/main>/.exec(body)?.[0].replace(/<code>[^<]*<\/code>/, '');
    assert.match(forKnown.body, /If an account exists for that address, we sent a link/);
    assert.equal(answer(forKnown.body), answer(forUnknown.body));

    const mail = await inbox.waitFor(email, 2);
    assert.equal(mail.subject, 'Reset your password');
    linkTo(mail, 'reset-password');
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(inbox.to(unknown), []);
  });

  it('resets the password once, signs every browser out and verifies the address', async () => {
    const email = uniqueEmail('reset');
    const elsewhere = await signUp(email);
    await inbox.waitFor(email);
    const { client: other } = await signIn(email, PASSWORD);
    assert.equal((await other.get('/console')).status, 200);

    await requestReset(email);
    const link = linkTo(await inbox.waitFor(email, 2), 'reset-password');
    const path = new URL(link).pathname;
    const browser = new ConsoleClient(service.url);
    const form = await browser.get(link);
    assert.equal(form.status, 200);
    assert.match(form.body, /Choose a new password/);

    const short = await browser.post(path, {
      csrf_token: formCsrfToken(form.body, path),
      password: 'short',
    });
    assert.equal(short.status, 400);
    assert.match(short.body, /Password must be at least 8 characters\./);

    const done = await browser.post(path, {
      csrf_token: formCsrfToken(form.body, path),
      password: NEW_PASSWORD,
    });
    assert.equal(done.status, 303);
    assert.equal(locationOf(done), '/console/password-changed');
    assert.match(
      (await browser.get('/console/password-changed')).body,
      /password has been changed/,
    );

    for (const client of [elsewhere, other]) {
      const page = await client.get('/console');
      assert.equal(page.status, 303, 'signed out');
      assert.equal(locationOf(page), '/console/sign-in');
    }
    const user = await userRow(email);
    assert.equal(await db()('browser_sessions').where({ user_id: user.id }).first(), undefined);
    assert.ok(user.email_verified, 'the reset link proved the address');

    const reused = await browser.get(link);
    assert.equal(reused.status, 410);
    assert.match(reused.body, /already been used/);
    const reposted = await browser.post(path, {
      csrf_token: formCsrfToken(form.body, path),
      password: 'yet another password',
    });
    assert.equal(reposted.status, 410);

    assert.equal((await signIn(email, PASSWORD)).response.status, 401);
    assert.equal((await signIn(email, NEW_PASSWORD)).response.status, 303);
    const types = (await db()('audit_events').where({ actor_user_id: user.id })).map(
      (row: { type: string; details: string | null }) => {
        assert.ok(!(row.details ?? '').includes(path.split('/').pop()!), 'no token in the audit');
        return row.type;
      },
    );
    assert.ok(types.includes('password_reset.requested'));
    assert.ok(types.includes('password_reset.completed'));
  });

  it('refuses a reset link after an hour', async () => {
    const email = uniqueEmail('slow');
    await signUp(email);
    await inbox.waitFor(email);
    await requestReset(email);
    const link = linkTo(await inbox.waitFor(email, 2), 'reset-password');
    clock.advance(HOUR + 1000);
    const late = await new ConsoleClient(service.url).get(link);
    assert.equal(late.status, 410);
    assert.match(late.body, /This link has expired/);
  });

  it('lets exactly one of two resets with the same link succeed', async () => {
    const email = uniqueEmail('race');
    await signUp(email);
    await inbox.waitFor(email);
    await requestReset(email);
    const link = linkTo(await inbox.waitFor(email, 2), 'reset-password');
    const path = new URL(link).pathname;
    const browser = new ConsoleClient(service.url);
    const csrf = formCsrfToken((await browser.get(link)).body, path);
    const answers = await Promise.all(
      ['first password!', 'second password'].map((password) =>
        browser.post(path, { csrf_token: csrf, password }),
      ),
    );
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [303, 410]);
    const winner = answers[0]!.status === 303 ? 'first password!' : 'second password';
    assert.equal((await signIn(email, winner)).response.status, 303);

    const next = uniqueEmail('after-race');
    await signUp(next);
    assert.ok(await userRow(next), 'the next write still works');
  });

  it('reports every sign-up problem at once, each field marked', async () => {
    const client = new ConsoleClient(service.url);
    const response = await client.submit('/console/sign-up', '/console/sign-up', {
      email: 'not-an-address',
      password: 'short',
      name: '   ',
    });
    assert.equal(response.status, 400);
    assert.match(response.body, /There are 3 problems/);
    assert.match(response.body, /Email must contain exactly one @/);
    assert.match(response.body, /Password must be at least 8 characters\./);
    assert.match(response.body, /Enter your name\./);
    for (const id of ['email', 'password', 'name']) {
      assert.match(response.body, new RegExp(`<input id="${id}"[^>]*aria-invalid="true"`));
    }
  });

  it('offers "Forgot password?" on both sign-in pages', async () => {
    const email = uniqueEmail('links');
    await signUp(email);
    const { apps } = testAccounts(db(), clock);
    const { app } = await apps.createApp({
      ownerEmail: email,
      name: 'Link check',
      redirectUris: [REDIRECT_URI],
    });
    const query = new URLSearchParams({
      client_id: app.client_id,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'email',
      state: 'xyz',
    });
    const pages = [
      await new ConsoleClient(service.url).get('/console/sign-in'),
      await new ConsoleClient(service.url).get(`/oauth/v2/authorize?${query}`),
    ];
    for (const page of pages) {
      assert.equal(page.status, 200);
      assert.match(page.body, /<a href="\/console\/forgot-password">Forgot password\?<\/a>/);
    }
  });
});

describeEachDialect('email rate limits', (database) => {
  let inbox: SmtpInbox;
  let service: Awaited<ReturnType<typeof startTestService>>;

  before(async () => {
    inbox = await SmtpInbox.start();
    service = await startTestService(database(), {
      env: { SMTP_URL: inbox.url, RATE_LIMIT_SIGN_IN_MAX: '2' },
    });
  });
  after(async () => {
    await service?.stop();
    await inbox?.close();
  });

  it('answers 429 to reset requests for one address beyond the limit', async () => {
    const requestReset = (email: string) =>
      new ConsoleClient(service.url).submit(
        '/console/forgot-password',
        '/console/forgot-password',
        {
          email,
        },
      );
    const address = `limit-${Date.now()}@example.com`;
    assert.equal((await requestReset(address)).status, 200);
    assert.equal((await requestReset(address)).status, 200);
    const limited = await requestReset(address);
    assert.equal(limited.status, 429);
    assert.ok(Number(limited.headers.get('retry-after')) > 0);
    assert.match(limited.body, /Too many requests for a reset link/);
  });

  it('limits "send the link again" per user', async () => {
    const email = `resend-${Date.now()}@example.com`;
    const client = new ConsoleClient(service.url);
    await client.signUp(email, PASSWORD);
    await inbox.waitFor(email);
    const resend = async () => {
      const page = await client.get('/console');
      return client.post('/console/email-verification', {
        csrf_token: formCsrfToken(page.body, '/console/email-verification'),
      });
    };
    assert.equal((await resend()).status, 303);
    assert.equal((await resend()).status, 303);
    const limited = await resend();
    assert.equal(limited.status, 429);
    assert.match(limited.body, /Too many links asked for/);
    assert.equal(inbox.to(email).length >= 1, true);
  });
});

describeEachDialect('development outbox', (database) => {
  let development: Awaited<ReturnType<typeof startTestService>>;
  let production: Awaited<ReturnType<typeof startTestService>>;

  before(async () => {
    development = await startTestService(database());
    production = await startTestService(database(), { env: { NODE_ENV: 'production' } });
  });
  after(async () => {
    await development?.stop();
    await production?.stop();
  });

  it('lists the mails when SMTP_URL is unset, newest first, links clickable', async () => {
    const first = `outbox-a-${Date.now()}@example.com`;
    const second = `outbox-b-${Date.now()}@example.com`;
    await new ConsoleClient(development.url).signUp(first, PASSWORD);
    await new ConsoleClient(development.url).signUp(second, PASSWORD);
    const page = await new ConsoleClient(development.url).get('/console/dev/outbox');
    assert.equal(page.status, 200);
    assert.match(page.body, /Verify your email address/);
    assert.ok(page.body.indexOf(second) < page.body.indexOf(first), 'newest first');
    const link = /<a href="(http:\/\/[^"]+\/console\/verify-email\/[^"]+)">/.exec(page.body);
    assert.ok(link, 'a clickable verification link');
    assert.equal((await new ConsoleClient(development.url).get(link[1]!)).status, 200);
  });

  it('does not exist in production', async () => {
    const page = await new ConsoleClient(production.url).get('/console/dev/outbox');
    assert.equal(page.status, 404);
  });
});
