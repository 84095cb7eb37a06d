import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { ManualClock } from '../../src/clock.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logging.js';
import { OUTBOX_SIZE, OutboxMailer, UndeliveredMailLog } from '../../src/mail/outbox-mailer.js';

function capturingLogger() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: createLogger('info', stream), lines };
}

const MAIL = {
  to: 'ada@example.com',
  subject: 'Reset your password',
  text: 'Open this link:\n\nhttp://localhost:3000/console/reset-password/secret-token\n\nBye',
  html: '<p>…</p>',
};

describe('mailers without SMTP', () => {
  it('keeps the last mails in the development outbox and logs their links', async () => {
    const { logger, lines } = capturingLogger();
    const outbox = new OutboxMailer(logger, new ManualClock(0));
    for (let index = 0; index < OUTBOX_SIZE + 5; index++) {
      await outbox.send({ ...MAIL, subject: `mail ${index}` });
    }
    const kept = outbox.list();
    assert.equal(kept.length, OUTBOX_SIZE);
    assert.equal(kept[0]!.subject, `mail ${OUTBOX_SIZE + 4}`);
    assert.deepEqual(kept[0]!.links, ['http://localhost:3000/console/reset-password/secret-token']);
    assert.match(lines.at(-1)!, /secret-token/);
  });

  it('in production logs subject and recipient only, never the links', async () => {
    const { logger, lines } = capturingLogger();
    await new UndeliveredMailLog(logger).send(MAIL);
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /Reset your password/);
    assert.match(lines[0]!, /ada@example\.com/);
    assert.doesNotMatch(lines[0]!, /secret-token/);
  });

  it('reads SMTP_URL and MAIL_FROM, and never echoes the SMTP password', () => {
    assert.deepEqual(loadConfig({}).mail, {
      smtpUrl: undefined,
      from: 'Hiring partner <no-reply@localhost>',
    });
    assert.equal(
      loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.com:465' }).mail.smtpUrl,
      'smtps://u:p@mail.example.com:465',
    );
    assert.throws(
      () => loadConfig({ SMTP_URL: 'http://user:hunter2/@x@mail.example.com' }),
      (error: Error) =>
        error instanceof ConfigError &&
        /SMTP_URL/.test(error.message) &&
        !error.message.includes('hunter2'),
    );
  });
});
