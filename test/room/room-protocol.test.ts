import assert from 'node:assert/strict';
import {
  SERVICE_MESSAGE_TYPES,
  decodeServiceMessage,
  encodePageMessage,
  encodeServiceMessage,
  type PageMessage,
  type Peer,
  type ServiceMessage,
} from '../../src/room/protocol/messages.js';
import { readPageMessage } from '../../src/room/protocol/page-messages.js';

const PEER: Peer = {
  id: '0b5c2d7e-8a4f-4d7e-9a51-3f1c2b6d7e80',
  role: 'interviewee',
  name: 'Robin Applicant',
  video: true,
  microphoneOn: true,
  cameraOn: false,
};

/** One of every kind a page sends (both kinds of signal). */
const PAGE_MESSAGES: PageMessage[] = [
  { type: 'join', video: true },
  { type: 'leave' },
  { type: 'signal', to: PEER.id, data: { description: { type: 'offer', sdp: 'v=0\r\n' } } },
  {
    type: 'signal',
    to: PEER.id,
    data: {
      candidate: {
        candidate: 'candidate:1 1 udp 1 127.0.0.1 9 typ host',
        sdpMid: '0',
        sdpMLineIndex: 0,
      },
    },
  },
  { type: 'media', microphoneOn: false, cameraOn: true },
  { type: 'admit' },
  { type: 'send-back' },
];

/** One of every kind the service sends. */
const SERVICE_MESSAGES: Record<ServiceMessage['type'], ServiceMessage> = {
  hello: { type: 'hello', role: 'interviewer' },
  changed: { type: 'changed' },
  state: {
    type: 'state',
    eventStatus: 'STARTED',
    interviewee: { name: 'Robin Applicant', status: 'CHECKED_IN' },
    present: [{ role: 'interviewer', name: 'Lee' }],
    admission: { canAdmit: true, canSendBack: false, refusal: null },
  },
  room: {
    type: 'room',
    you: { ...PEER, role: 'interviewer', name: 'Lee' },
    peers: [PEER],
    iceServers: [{ urls: 'stun:stun.example.com' }],
    maxVideoParticipants: 4,
    videoRefusal: null,
  },
  'peer-joined': { type: 'peer-joined', peer: PEER },
  'peer-left': { type: 'peer-left', peer: PEER },
  'peer-media': { type: 'peer-media', peer: PEER },
  signal: { type: 'signal', from: PEER.id, data: { description: { type: 'answer', sdp: 'v=0' } } },
  recording: { type: 'recording', active: true, recordingId: 'r-1', startsAt: 1_700_000_000_000 },
  refused: { type: 'refused', message: 'The interview is over.' },
  'admission-refused': { type: 'admission-refused', message: 'Nobody is waiting.' },
  invalid: { type: 'invalid', message: 'The message is not JSON.' },
  removed: { type: 'removed', message: 'An interviewer sent you back to the lobby.' },
  ended: { type: 'ended', message: 'Your interview has ended. Thank you.' },
};

describe('the room protocol (src/room/protocol)', () => {
  it('reads back every kind of message a page sends', () => {
    const kinds = new Set(PAGE_MESSAGES.map((message) => message.type));
    assert.equal(kinds.size, 6, 'every kind of PageMessage is tried');
    for (const message of PAGE_MESSAGES) {
      assert.deepEqual(readPageMessage(encodePageMessage(message)), { ok: true, message });
    }
  });

  it('reads back every kind of message the service sends, as the browser decodes it', () => {
    assert.deepEqual(Object.keys(SERVICE_MESSAGES).sort(), [...SERVICE_MESSAGE_TYPES].sort());
    for (const message of Object.values(SERVICE_MESSAGES)) {
      assert.deepEqual(decodeServiceMessage(encodeServiceMessage(message)), message);
    }
  });

  it('refuses what a page sends that is not a message of the protocol, saying what is wrong', () => {
    const refused: Array<[string, RegExp]> = [
      ['', /not JSON/],
      ['{'.repeat(500), /not JSON/],
      ['null', /not one the room understands/],
      ['[]', /not one the room understands/],
      ['{"type":"dance"}', /at type/],
      ['{"type":"join","video":"yes"}', /at video/],
      ['{"type":"signal","to":"../x","data":{}}', /at to/],
      [`{"type":"signal","to":"${PEER.id}","data":{"description":"offer"}}`, /at data/],
      [`{"type":"signal","to":"${PEER.id}","data":{"candidate":"c1"}}`, /at data/],
      [`{"type":"signal","to":"${PEER.id}","data":{}}`, /at data/],
      ['{"type":"media","microphoneOn":true}', /at cameraOn/],
    ];
    for (const [text, problem] of refused) {
      const read = readPageMessage(text);
      assert.equal(read.ok, false, text);
      if (!read.ok) assert.match(read.problem, problem, text);
    }
  });

  it('takes a join without `video` for one without a camera', () => {
    assert.deepEqual(readPageMessage('{"type":"join"}'), {
      ok: true,
      message: { type: 'join', video: false },
    });
  });

  it('drops what a page adds to a message, relaying only what the protocol names', () => {
    const read = readPageMessage(
      JSON.stringify({ type: 'leave', as: 'interviewer', eventId: 'another-event' }),
    );
    assert.deepEqual(read, { ok: true, message: { type: 'leave' } });
  });

  it('lets the browser ignore what is not a message of the service', () => {
    for (const text of ['', 'null', '"hello"', '{}', '{"type":"reload-everything"}']) {
      assert.equal(decodeServiceMessage(text), null, text);
    }
  });
});
