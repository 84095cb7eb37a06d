import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import {
  RECORD_QUERY,
  assertPlaysVideoOf,
  assertSameDocument,
  identifyInterviewer,
  joinRoom,
  markDocument,
  mediaDuration,
  press,
  responsesSeen,
  type People,
  type ReadRecord,
} from '../support/interview-room.js';

export const INTERVIEWER = 'lee.interviewer@example.com';

export const CREATE_EVENT = `mutation($input: CreateVirtualInterviewEventInput!) {
  createVirtualInterviewEvent(input: $input) {
    event {
      id mediaType interviewerLobbyUrl
      intervieweesConnection { interviewees { intervieweeLobbyUrl } }
    }
  }
}`;

export type GraphQL = (query: string, variables: object) => Promise<any>;

/** An event starting in ten minutes, with one invited interviewer and an interviewee. */
export function eventStartingSoon(extra: Record<string, unknown> = {}) {
  const now = Date.now();
  return {
    title: 'Platform engineer – final round',
    startTime: new Date(now + 10 * 60_000).toISOString(),
    endTime: new Date(now + 70 * 60_000).toISOString(),
    timezone: 'Europe/Berlin',
    interviewers: [{ email: INTERVIEWER }],
    interviewee: { name: 'Robin Applicant', email: 'robin@example.com' },
    requestMetadata: { atsName: 'Room test' },
    ...extra,
  };
}

export async function readRecord(gql: GraphQL, eventId: string): Promise<ReadRecord> {
  const data = await gql(RECORD_QUERY, { ids: [eventId] });
  const [interviewee] = data.virtualInterviewEvents.events[0].intervieweesConnection.interviewees;
  return { status: interviewee.status, records: interviewee.interviewRecordsConnection.records };
}

/**
 * The whole interview as its two participants live it, each in their own browser, each page
 * following the state machine without a reload; the API is asked at every step what it reports.
 * The lobby URLs may point at different service processes.
 */
export async function conductInterview(options: {
  people: People;
  gql: GraphQL;
  eventId: string;
  interviewerUrl: string;
  intervieweeUrl: string;
}): Promise<{ interviewer: Page; interviewee: Page }> {
  const { people, gql, eventId } = options;

  const interviewer = await people.newPage();
  await identifyInterviewer(interviewer, options.interviewerUrl, INTERVIEWER);
  await interviewer.getByText('Not checked in yet').waitFor();
  await markDocument(interviewer);

  const interviewee = await people.newPage();
  await interviewee.goto(options.intervieweeUrl);
  await press(interviewee, 'Check in');
  await interviewee.getByText('You are checked in and waiting in the lobby.').waitFor();
  await markDocument(interviewee);

  // The interviewer sees the arrival without reloading.
  await interviewer.getByText('Checked in, waiting in the lobby').waitFor();
  await assertSameDocument(interviewer);

  await press(interviewer, 'Admit');
  await interviewer.getByText('Being interviewed').waitFor();
  // The interviewee is told, and shown the way into the room, without reloading.
  await interviewee.getByText('You are being interviewed now.').waitFor();
  await interviewee.getByRole('link', { name: 'Join the interview room' }).waitFor();
  await assertSameDocument(interviewee);
  assert.equal((await readRecord(gql, eventId)).records[0]?.startTime, null);

  await interviewer.getByRole('link', { name: 'Open the interview room' }).click();
  await joinRoom(interviewer);
  await interviewer.getByText('Waiting for the others to join').waitFor();
  // An interviewer alone in the room does not start the interview.
  assert.equal((await readRecord(gql, eventId)).records[0]?.startTime, null);

  const beforeBothJoined = Date.now();
  await interviewee.getByRole('link', { name: 'Join the interview room' }).click();
  await joinRoom(interviewee);
  await assertPlaysVideoOf(interviewee, 1);
  await assertPlaysVideoOf(interviewer, 1);
  const started = (await readRecord(gql, eventId)).records[0]!;
  assert.ok(started.startTime, 'the record starts once both are in the room');
  assert.ok(Date.parse(started.startTime) >= beforeBothJoined - 1000, started.startTime);
  assert.equal(started.endTime, null);
  await markDocument(interviewee);
  return { interviewer, interviewee };
}

/**
 * The interviewer records a few seconds; the interviewee is told before the recording starts and
 * sees it while it runs. The API then hands out a recording URL that streams a WebM file.
 */
export async function recordAFewSeconds(
  gql: GraphQL,
  eventId: string,
  interviewer: Page,
  interviewee: Page,
): Promise<void> {
  // Two chunks stored: the recorder cuts one every 2 s, so at least 4 s are recorded however
  // slowly the machine runs.
  const twoChunksStored = responsesSeen(
    interviewer,
    2,
    (response) =>
      response.request().method() === 'PUT' &&
      /\/recordings\/[^/]+\/chunks\/\d+$/.test(new URL(response.url()).pathname) &&
      response.ok(),
  );
  twoChunksStored.catch(() => {}); // awaited below; failing early must not go unhandled
  await interviewer.getByRole('button', { name: 'Start recording' }).click();
  await interviewee.getByText('This interview will be recorded.').waitFor();
  await interviewee.getByText('● Recording').waitFor();
  await twoChunksStored;
  await interviewer.getByRole('button', { name: 'Stop recording' }).click();
  await interviewer.getByRole('button', { name: 'Start recording' }).waitFor();
  await interviewee.locator('#recording-notice').waitFor({ state: 'hidden' });

  const [record] = (await readRecord(gql, eventId)).records;
  assert.ok(record?.recordingUrl, 'the record has a recording URL');
  const ranged = await fetch(record.recordingUrl, { headers: { range: 'bytes=0-3' } });
  assert.equal(ranged.status, 206);
  assert.match(ranged.headers.get('content-range') ?? '', /^bytes 0-3\/\d+$/);
  // A WebM file starts with the EBML magic.
  assert.deepEqual([...new Uint8Array(await ranged.arrayBuffer())], [0x1a, 0x45, 0xdf, 0xa3]);
  const duration = await mediaDuration(interviewer, record.recordingUrl);
  assert.ok(duration > 1, `the recording lasts ${duration} s`);
}

/** The interviewer ends the interview from the room; the interviewee's room page says so. */
export async function endInterview(
  gql: GraphQL,
  eventId: string,
  interviewer: Page,
  interviewee: Page,
): Promise<void> {
  await press(interviewer, 'End interview');
  await interviewer.getByRole('heading', { name: 'End this interview?' }).waitFor();
  await press(interviewer, 'End interview');
  await interviewee.getByText('Your interview has ended. Thank you.').waitFor();
  await assertSameDocument(interviewee);
  const read = await readRecord(gql, eventId);
  assert.equal(read.status, 'INTERVIEWED');
  assert.ok(read.records[0]?.endTime, 'ending the interview sets the record’s end time');
}
