import assert from 'node:assert/strict';
import { ManualClock } from '../../src/clock.js';
import { alsoTelling, CalendarChanges } from '../../src/calendar-mail/calendar-changes.js';
import { composeCalendarMail } from '../../src/calendar-mail/compose.js';
import type { Database } from '../../src/db/database.js';
import { composeInterviews } from '../../src/interviews/compose.js';
import { composeRecordings } from '../../src/recordings/compose.js';
import { NO_WEBHOOKS, type WebhookOutbox } from '../../src/webhooks/outbox.js';
import { testAccounts, testSharedDependencies } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { insertTenant } from '../support/interview-fixtures.js';

const HOUR = 3_600_000;
const MORNING = Date.UTC(2027, 5, 1, 9, 0);
const at = (ms: number) => ({ epochMs: ms, offsetMinutes: 0 });

type Tenant = Awaited<ReturnType<typeof insertTenant>>;

/** What interview changes write for their participants' calendars, in their transactions. */
describeEachDialect('calendar mails written by interview changes', (database) => {
  function writer(db: Database, clock: ManualClock, outbox: WebhookOutbox) {
    const shared = testSharedDependencies(db, { clock });
    return composeInterviews(shared, {
      accounts: testAccounts(db, clock),
      recordings: composeRecordings(shared),
      outbox,
    }).writer;
  }

  function create(events: ReturnType<typeof writer>, tenant: Tenant, start = MORNING + 48 * HOUR) {
    return events.create(
      tenant.employerId,
      { userId: tenant.userId, appId: tenant.appId },
      {
        title: 'Calendar round',
        startTime: at(start),
        endTime: at(start + HOUR),
        timezone: 'UTC',
        interviewers: [{ email: 'lee@example.com' }],
        interviewee: { name: 'Casey Candidate', email: 'casey@example.com' },
        requestMetadata: { atsName: 'Calendar test' },
      },
    );
  }

  const mailsOf = (eventId: string) =>
    database().db('calendar_mails').where({ event_id: eventId }).orderBy('id');

  it('writes nothing when the change rolls back', async () => {
    const { db } = database();
    const clock = new ManualClock(MORNING);
    const tenant = await insertTenant(db, 'rollback');
    const failing: WebhookOutbox = {
      record: async () => {
        throw new Error('the change fails after its calendar mails were written');
      },
    };
    const changes = new CalendarChanges({ remindersBeforeMs: [24 * HOUR, HOUR] });
    const events = writer(db, clock, alsoTelling(changes, failing));
    await assert.rejects(create(events, tenant), /calendar mails were written/);
    assert.deepEqual(await db('interview_events').where({ employer_id: tenant.employerId }), []);
    assert.deepEqual(await db('calendar_invitations'), []);
    assert.deepEqual(await db('calendar_mails'), []);

    // The same change committing writes them: the rollback above is what removed them.
    const committed = writer(db, clock, alsoTelling(NO_WEBHOOKS, changes));
    const event = await create(committed, tenant);
    const kinds = (await mailsOf(event.id)).map((row) => row.kind);
    assert.deepEqual(kinds.filter((kind) => kind === 'invitation').length, 3);
    assert.deepEqual(kinds.filter((kind) => kind === 'reminder').length, 6);
  });

  it('follows each app’s switches', async () => {
    const { db } = database();
    const clock = new ManualClock(MORNING);
    const tenant = await insertTenant(db, 'switches');
    const shared = testSharedDependencies(db, { clock });
    const calendar = composeCalendarMail(shared, { mail: { mailer: { send: async () => {} } } });
    const events = writer(db, clock, calendar.observing(NO_WEBHOOKS));

    await calendar.appSettings.set(tenant.appId, { invitations: false, reminders: true });
    const noInvitations = await create(events, tenant);
    assert.deepEqual(
      [...new Set((await mailsOf(noInvitations.id)).map((row) => row.kind))],
      ['reminder'],
    );
    // The SEQUENCE is kept all the same, for the lobby's calendar file.
    await events.update(tenant.employerId, {
      reschedule: {
        id: noInvitations.id,
        startTime: at(MORNING + 50 * HOUR),
        endTime: at(MORNING + 51 * HOUR),
      },
    });
    assert.equal(await calendar.sequenceOf(noInvitations.id), 1);

    await calendar.appSettings.set(tenant.appId, { invitations: true, reminders: false });
    assert.deepEqual(await calendar.appSettings.of(tenant.appId), {
      invitations: true,
      reminders: false,
    });
    const noReminders = await create(events, tenant);
    assert.deepEqual(
      [...new Set((await mailsOf(noReminders.id)).map((row) => row.kind))],
      ['invitation'],
    );
  });

  it('mails nothing to whom a cancellation reaches before their invitation was sent', async () => {
    const { db } = database();
    const clock = new ManualClock(MORNING);
    const tenant = await insertTenant(db, 'quick-cancel');
    const sent: string[] = [];
    const shared = testSharedDependencies(db, {
      clock,
      env: { CALENDAR_MAIL_POLL_MS: '600000' },
    });
    const calendar = composeCalendarMail(shared, {
      mail: { mailer: { send: async (mail) => void sent.push(mail.subject) } },
    });
    const events = writer(db, clock, calendar.observing(NO_WEBHOOKS));
    const event = await create(events, tenant);
    await events.cancel(tenant.employerId, event.id);
    const sender = calendar.startSending()!;
    try {
      await sender.sendDueNow();
    } finally {
      await sender.stop();
    }
    // The suite's earlier events had their invitations due too: those were sent.
    assert.ok(sent.length > 0);
    const statuses = (await mailsOf(event.id)).map((row) => [row.kind, row.status]);
    assert.deepEqual([...new Set(statuses.map((pair) => pair.join(' ')))].sort(), [
      'cancellation skipped',
      'invitation skipped',
    ]);
  });
});
