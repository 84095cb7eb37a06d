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

describe('calendar mail settings', () => {
  it('reads CALENDAR_* with 24 h and 1 h reminders by default, and refuses bad offsets', () => {
    assert.deepEqual(loadConfig({}).calendarMail, {
      enabled: true,
      remindersBeforeMs: [24 * 3_600_000, 3_600_000],
      retryScheduleMs: [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000],
      pollMs: 5000,
      sender: true,
    });
    const set = loadConfig({
      CALENDAR_MAILS: 'off',
      CALENDAR_REMINDERS: '15m,2d',
      CALENDAR_MAIL_SENDER: 'off',
    }).calendarMail;
    assert.deepEqual(
      [set.enabled, set.sender, set.remindersBeforeMs],
      [false, false, [2 * 86_400_000, 900_000]],
    );
    assert.deepEqual(loadConfig({ CALENDAR_REMINDERS: 'none' }).calendarMail.remindersBeforeMs, []);
    for (const bad of ['24', '1h,1h', '31d', '0m', '1h;2h', '1w']) {
      assert.throws(
        () => loadConfig({ CALENDAR_REMINDERS: bad }),
        (error: Error) => error instanceof ConfigError && /CALENDAR_REMINDERS/.test(error.message),
        bad,
      );
    }
  });
});

describe('the development outbox and calendar mails', () => {
  it('keeps the calendar part, for the console page to show', async () => {
    const { logger } = capturingLogger();
    const outbox = new OutboxMailer(logger, new ManualClock(0));
    const content = 'BEGIN:VCALENDAR\r\nMETHOD:REQUEST\r\nEND:VCALENDAR\r\n';
    await outbox.send({
      ...MAIL,
      calendar: { method: 'REQUEST', content, filename: 'invite.ics' },
    });
    assert.deepEqual(outbox.list()[0]!.calendar, { method: 'REQUEST', content });
  });
});
