import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { composeInterviews } from '../../src/interviews/compose.js';
import { composeRecordings } from '../../src/recordings/compose.js';
import { NO_WEBHOOKS } from '../../src/webhooks/outbox.js';
import { testAccounts, testSharedDependencies } from '../support/compose.js';
import { describeEachDialect } from '../support/databases.js';
import { insertTenant } from '../support/interview-fixtures.js';
import { insertOpenEvent, temporaryRecordingsDir } from './interview-in-progress.js';

describeEachDialect('recordings: the change hook', (database) => {
  let dir: string;
  before(() => {
    dir = temporaryRecordingsDir();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('is told after a start, a stop, a stop at the size limit and a stop of a recording left running', async () => {
    const { db } = database();
    const shared = testSharedDependencies(db, {
      env: { RECORDINGS_DIR: dir, RECORDING_MAX_BYTES: '100' },
    });
    const changes: string[] = [];
    const recordings = composeRecordings(shared, {
      onRecordingChange: (eventId, change) => {
        changes.push(`${eventId === event.eventId}:${change.recordingId}:${change.active}`);
        throw new Error('a failing hook undoes nothing');
      },
    });
    const { lifecycle } = composeInterviews(shared, {
      accounts: testAccounts(db),
      recordings,
      outbox: NO_WEBHOOKS,
    });
    const event = await insertOpenEvent(db, await insertTenant(db, 'hook'));
    const interviewee = await db('interviewees').where({ event_id: event.eventId }).first();
    const [lee] = await db('interviewers').where({ event_id: event.eventId }).orderBy('position');
    await lifecycle.checkIn(event.eventId, interviewee.id);
    await lifecycle.admit(event.eventId, lee.id);

    const service = recordings.service;
    const first = await service.start(event.eventId, lee.id);
    await service.stop(event.eventId, first.id, lee.id);
    await service.stop(event.eventId, first.id, lee.id);
    const second = await service.start(event.eventId, lee.id);
    await assert.rejects(
      service.appendChunk(event.eventId, second.id, lee.id, 0, randomBytes(101)),
      /limit/,
    );
    const third = await service.start(event.eventId, lee.id);
    await lifecycle.sendBack(event.eventId, lee.id);
    await lifecycle.admit(event.eventId, lee.id);
    const fourth = await service.start(event.eventId, lee.id);

    assert.deepEqual(changes, [
      `true:${first.id}:true`,
      `true:${first.id}:false`,
      `true:${second.id}:true`,
      `true:${second.id}:false`,
      `true:${third.id}:true`,
      `true:${third.id}:false`,
      `true:${fourth.id}:true`,
    ]);
    const statuses = await db('recordings').where({ event_id: event.eventId }).pluck('status');
    assert.deepEqual(statuses.sort(), ['recording', 'stopped', 'stopped', 'stopped']);
  });
});
