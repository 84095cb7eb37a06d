import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ConsoleClient, type Page } from '../support/console-client.js';
import { describeEachDialect } from '../support/databases.js';
import {
  RAISED_RATE_LIMITS,
  startServiceProcess,
  type ServiceProcess,
} from '../support/service-process.js';
import { SmtpInbox, type ReceivedMail } from '../support/smtp-inbox.js';

const PASSWORD = 'correct horse battery staple';

/** What a browser can tell apart in an answer: everything but the per-request values. */
function comparable(page: Page) {
  const cookies = page.headers
    .getSetCookie()
    .map((line) => line.replace(/^(hpa_csrf)=[^;]*/, '$1=<csrf>'))
    .sort();
  const headers = [...page.headers.keys()]
    // The length and the ETag follow the body, which is compared itself (its CSRF token aside).
    .filter(
      (name) => !['date', 'x-request-id', 'set-cookie', 'content-length', 'etag'].includes(name),
    )
    .map((name) => `${name}: ${page.headers.get(name)}`)
    .sort();
  const body = page.body.replace(/name="csrf_token" value="[^"]*"/g, 'name="csrf_token" value=""');
  return { status: page.status, headers, cookies, body };
}

async function mailTo(inbox: SmtpInbox, address: string, subject: string): Promise<ReceivedMail> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mail = inbox.to(address).find((received) => received.subject === subject);
    if (mail) return mail;
    if (Date.now() > deadline) {
      const got = inbox.to(address).map((received) => received.subject);
      assert.fail(`no "${subject}" mail to ${address} (got ${JSON.stringify(got)})`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Issue 18 item 6: sign-up must not tell whether an address has an account, as sign-in and
 * "Forgot password?" do not. A new and a taken address get the same answer (status, headers,
 * cookies, body, and the page it leads to); the new one gets its verification link, the owner
 * of the taken one a mail instead, and the account stays as it was.
 */
describeEachDialect(
  'console sign-up answers alike for new and taken addresses (production cluster)',
  (database) => {
    let service: ServiceProcess | undefined;
    let inbox: SmtpInbox;

    before(async function () {
      this.timeout(120_000);
      inbox = await SmtpInbox.start();
      service = await startServiceProcess(
        database(),
        { ...RAISED_RATE_LIMITS, SMTP_URL: inbox.url },
        'cluster',
      );
    });
    after(async () => {
      await service?.stop();
      await inbox?.close();
    });

    const unique = (label: string) => `${label}-${randomBytes(4).toString('hex')}@example.com`;

    async function submitSignUp(form: Record<string, string>) {
      const browser = new ConsoleClient(service!.url);
      const answer = await browser.submit('/console/sign-up', '/console/sign-up', form);
      const next =
        answer.status === 303 ? await browser.get(answer.headers.get('location')!) : null;
      return { browser, answer, next };
    }

    it('answers a taken address as a new one, and mails its owner instead', async function () {
      this.timeout(60_000);
      const owner = unique('owner');
      const first = await submitSignUp({ email: owner, password: PASSWORD, name: 'Olive Owner' });
      assert.equal(first.answer.status, 303);
      await mailTo(inbox, owner, 'Verify your email address');
      const users = Number((await database().db('users').count({ n: '*' }).first())!.n);

      const newcomer = unique('newcomer');
      const attempt = 'a different passphrase';
      const fresh = await submitSignUp({ email: newcomer, password: attempt, name: 'Nat New' });
      const taken = await submitSignUp({
        email: owner.toUpperCase(),
        password: attempt,
        name: 'Nat New',
      });
      const summary = {
        new: [fresh.answer.status, fresh.answer.headers.get('location')],
        taken: [taken.answer.status, taken.answer.headers.get('location')],
      };
      console.log(`      sign-up answers: ${JSON.stringify(summary)}`);
      assert.deepEqual(comparable(taken.answer), comparable(fresh.answer));
      assert.equal(fresh.answer.status, 303);
      assert.equal(fresh.answer.headers.get('location'), '/console/sign-in');
      assert.deepEqual(comparable(taken.next!), comparable(fresh.next!));
      assert.match(fresh.next!.body, /Check your email/);
      for (const { browser } of [fresh, taken]) {
        assert.equal(browser.cookie('hpa_session'), undefined, 'nobody is signed in');
      }

      // The new address has its account and its verification link; the owner a mail saying how to
      // get in, and no verification link.
      const verification = await mailTo(inbox, newcomer, 'Verify your email address');
      assert.ok(verification.links.some((link) => link.includes('/console/verify-email/')));
      const notice = await mailTo(inbox, owner, 'You already have a partner account');
      assert.match(notice.body, /Someone tried to create a partner account with this address/);
      assert.deepEqual(notice.links, [
        `${service!.url}/console/sign-in`,
        `${service!.url}/console/forgot-password`,
      ]);
      assert.equal(
        inbox.to(owner).filter((mail) => mail.subject === 'Verify your email address').length,
        1,
      );
      assert.equal(
        Number((await database().db('users').count({ n: '*' }).first())!.n),
        users + 1,
        'one account more: the new address',
      );

      // The owner's password is the owner's; the newcomer signs in with theirs.
      const signIn = (email: string, password: string) =>
        new ConsoleClient(service!.url).submit('/console/sign-in', '/console/sign-in', {
          email,
          password,
        });
      assert.equal((await signIn(owner, attempt)).status, 401);
      assert.equal((await signIn(owner, PASSWORD)).status, 303);
      assert.equal((await signIn(newcomer, attempt)).status, 303);
    });

    it('refuses a broken form alike for a new and a taken address', async function () {
      this.timeout(60_000);
      const owner = unique('owner');
      await new ConsoleClient(service!.url).signUp(owner, PASSWORD);
      const form = { password: 'short', name: 'Nat New' };
      const fresh = await submitSignUp({ ...form, email: unique('newcomer') });
      const taken = await submitSignUp({ ...form, email: owner });
      assert.equal(fresh.answer.status, 400);
      const withoutEmail = (page: Page) => {
        const seen = comparable(page);
        return { ...seen, body: seen.body.replace(/value="[^"]*@example\.com"/, 'value=""') };
      };
      assert.deepEqual(withoutEmail(taken.answer), withoutEmail(fresh.answer));
    });
  },
);
