import assert from 'node:assert/strict';
import {
  EVENT_STATUSES,
  INTERVIEWEE_STATUSES,
  type EventStatus,
  type IntervieweeStatus,
} from '../../src/interviews/vocabulary.js';
import {
  EVENT_ACTIONS,
  INTERVIEWEE_ACTIONS,
  eventChanges,
  eventTransition,
  intervieweeChanges,
  intervieweeTransition,
  type EventAction,
  type IntervieweeAction,
  type Transition,
} from '../../src/interviews/lifecycle/state-machines.js';

/** `-` marks a refused transition. Written out by hand from DESIGN §5, not from the source. */
const EXPECTED_EVENT: Record<EventStatus, Record<EventAction, EventStatus | '-'>> = {
  SCHEDULED: { join: 'STARTED', end: 'ENDED', archive: '-', cancel: 'CANCELLED' },
  STARTED: { join: 'STARTED', end: 'ENDED', archive: '-', cancel: 'CANCELLED' },
  ENDED: { join: '-', end: '-', archive: 'ARCHIVED', cancel: '-' },
  ARCHIVED: { join: '-', end: '-', archive: '-', cancel: '-' },
  CANCELLED: { join: '-', end: '-', archive: '-', cancel: 'CANCELLED' },
};

const EXPECTED_INTERVIEWEE: Record<
  IntervieweeStatus,
  Record<IntervieweeAction, IntervieweeStatus | '-'>
> = {
  RSVPED: {
    checkIn: 'CHECKED_IN',
    admit: '-',
    sendBack: '-',
    finish: '-',
    eventEnded: 'NOT_INTERVIEWED',
    eventCancelled: 'CANCELLED',
  },
  CHECKED_IN: {
    checkIn: 'CHECKED_IN',
    admit: 'INTERVIEWING',
    sendBack: '-',
    finish: '-',
    eventEnded: 'NOT_INTERVIEWED',
    eventCancelled: 'CANCELLED',
  },
  INTERVIEWING: {
    checkIn: 'INTERVIEWING',
    admit: '-',
    sendBack: 'REQUEUED',
    finish: 'INTERVIEWED',
    eventEnded: 'INTERVIEWED',
    eventCancelled: 'CANCELLED',
  },
  INTERVIEWED: {
    checkIn: '-',
    admit: '-',
    sendBack: '-',
    finish: '-',
    eventEnded: 'INTERVIEWED',
    eventCancelled: 'CANCELLED',
  },
  NOT_INTERVIEWED: {
    checkIn: '-',
    admit: '-',
    sendBack: '-',
    finish: '-',
    eventEnded: 'NOT_INTERVIEWED',
    eventCancelled: '-',
  },
  REQUEUED: {
    checkIn: 'REQUEUED',
    admit: 'INTERVIEWING',
    sendBack: '-',
    finish: '-',
    eventEnded: 'INTERVIEWED',
    eventCancelled: 'CANCELLED',
  },
  CANCELLED: {
    checkIn: '-',
    admit: '-',
    sendBack: '-',
    finish: '-',
    eventEnded: '-',
    eventCancelled: 'CANCELLED',
  },
};

/** Every status × every action, run through the machine, in the shape of the expected table. */
function matrix<Status extends string, Action extends string>(
  statuses: readonly Status[],
  actions: readonly Action[],
  transition: (status: Status, action: Action) => Transition<Status>,
  refusals: string[],
): Record<Status, Record<Action, Status | '-'>> {
  const rows = {} as Record<Status, Record<Action, Status | '-'>>;
  for (const status of statuses) {
    rows[status] = {} as Record<Action, Status | '-'>;
    for (const action of actions) {
      const result = transition(status, action);
      if (!result.allowed) refusals.push(result.refusal);
      rows[status][action] = result.allowed ? result.next : '-';
    }
  }
  return rows;
}

function refusedCells(table: Record<string, Record<string, string>>): number {
  return Object.values(table).flatMap((row) => Object.values(row).filter((cell) => cell === '-'))
    .length;
}

describe('interview state machines', () => {
  it('cover exactly the statuses of schema/interview.graphql and the actions of DESIGN §5', () => {
    assert.deepEqual(
      [...EVENT_STATUSES].sort(),
      ['ARCHIVED', 'CANCELLED', 'ENDED', 'SCHEDULED', 'STARTED'].sort(),
    );
    assert.deepEqual(
      [...INTERVIEWEE_STATUSES].sort(),
      [
        'CANCELLED',
        'CHECKED_IN',
        'INTERVIEWED',
        'INTERVIEWING',
        'NOT_INTERVIEWED',
        'REQUEUED',
        'RSVPED',
      ].sort(),
    );
    assert.deepEqual(EVENT_ACTIONS, ['join', 'end', 'archive', 'cancel']);
    assert.deepEqual(INTERVIEWEE_ACTIONS, [
      'checkIn',
      'admit',
      'sendBack',
      'finish',
      'eventEnded',
      'eventCancelled',
    ]);
  });

  it('event: every status × action gives the expected status or a refusal with a message', () => {
    const refusals: string[] = [];
    const actual = matrix(EVENT_STATUSES, EVENT_ACTIONS, eventTransition, refusals);
    assert.deepEqual(actual, EXPECTED_EVENT);
    assert.equal(refusals.length, refusedCells(EXPECTED_EVENT));
    for (const message of refusals) assert.match(message, /^[A-Z].{10,}\.$/);
  });

  it('interviewee: every status × action gives the expected status or a refusal with a message', () => {
    const refusals: string[] = [];
    const actual = matrix(
      INTERVIEWEE_STATUSES,
      INTERVIEWEE_ACTIONS,
      intervieweeTransition,
      refusals,
    );
    assert.deepEqual(actual, EXPECTED_INTERVIEWEE);
    assert.equal(refusals.length, refusedCells(EXPECTED_INTERVIEWEE));
    for (const message of refusals) assert.match(message, /^[A-Z].{10,}\.$/);
  });

  it('words refusals for the page: a cancelled or ended event is named as such', () => {
    const refusal = (transition: Transition<string>) =>
      transition.allowed ? assert.fail('expected a refusal') : transition.refusal;
    assert.match(refusal(eventTransition('CANCELLED', 'join')), /cancelled/);
    assert.match(refusal(eventTransition('ENDED', 'join')), /ended/);
    assert.match(refusal(eventTransition('ENDED', 'cancel')), /can no longer be cancelled/);
    assert.match(refusal(intervieweeTransition('RSVPED', 'admit')), /not checked in/);
    assert.match(refusal(intervieweeTransition('INTERVIEWING', 'admit')), /already in the/);
  });

  it('lists the status changes of an action for conditional UPDATEs, without self-loops', () => {
    assert.deepEqual(
      [...eventChanges('end')],
      [
        ['SCHEDULED', 'ENDED'],
        ['STARTED', 'ENDED'],
      ],
    );
    assert.deepEqual([...eventChanges('archive')], [['ENDED', 'ARCHIVED']]);
    assert.deepEqual([...eventChanges('join')], [['SCHEDULED', 'STARTED']]);
    assert.deepEqual(
      [...eventChanges('cancel')],
      [
        ['SCHEDULED', 'CANCELLED'],
        ['STARTED', 'CANCELLED'],
      ],
    );
    assert.deepEqual(
      [...intervieweeChanges('eventEnded')],
      [
        ['RSVPED', 'NOT_INTERVIEWED'],
        ['CHECKED_IN', 'NOT_INTERVIEWED'],
        ['INTERVIEWING', 'INTERVIEWED'],
        ['REQUEUED', 'INTERVIEWED'],
      ],
    );
    assert.deepEqual(
      [...intervieweeChanges('admit')],
      [
        ['CHECKED_IN', 'INTERVIEWING'],
        ['REQUEUED', 'INTERVIEWING'],
      ],
    );
  });
});
