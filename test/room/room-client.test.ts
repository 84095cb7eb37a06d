import assert from 'node:assert/strict';
import type { RoomEnvironment } from '../../client/room/environment.js';
import { Room } from '../../client/room/room.js';

/**
 * The room's client (client/room) against stand-ins for the DOM, media devices, the live
 * connection and RTCPeerConnection: what it does when a peer connection fails, when its person
 * leaves and rejoins, when an offer overtakes the news of its sender, and what an interviewer
 * sees of the interviewee waiting; which real browsers make hard to provoke on demand.
 * (Type-checked with the client, client/tsconfig.json, which has the DOM's types.)
 */

class FakeElement {
  dataset: Record<string, string> = {};
  hidden = false;
  disabled = false;
  textContent = '';
  value = '';
  className = '';
  srcObject: unknown = null;
  children: FakeElement[] = [];
  parent: FakeElement | null = null;
  attributes: Record<string, string> = {};
  listeners: Record<string, Array<() => void>> = {};
  constructor(readonly tag: string) {}
  addEventListener(type: string, listener: () => void) {
    (this.listeners[type] ??= []).push(listener);
  }
  click() {
    for (const listener of this.listeners.click ?? []) listener();
  }
  append(...children: FakeElement[]) {
    for (const child of children) {
      child.parent = this;
      this.children.push(child);
    }
  }
  replaceChildren() {
    this.children = [];
  }
  remove() {
    if (this.parent) this.parent.children = this.parent.children.filter((c) => c !== this);
  }
  setAttribute(name: string, value: string) {
    this.attributes[name] = value;
  }
  private descendants(): FakeElement[] {
    return this.children.flatMap((child) => [child, ...child.descendants()]);
  }
  querySelectorAll(selector: string): FakeElement[] {
    const alternatives = selector.split(',').map((part) => part.trim());
    return this.descendants().filter((element) =>
      alternatives.some((alternative) => {
        const [tag, ...classes] = alternative.split('.');
        const names = element.className.split(' ');
        return (!tag || tag === element.tag) && classes.every((name) => names.includes(name));
      }),
    );
  }
  querySelector(selector: string): FakeElement | null {
    return this.querySelectorAll(selector)[0] ?? null;
  }
}

class FakeTrack {
  enabled = true;
  stopped = false;
  constructor(readonly kind: 'audio' | 'video') {}
  stop() {
    this.stopped = true;
  }
  getSettings() {
    return { deviceId: `${this.kind}-1` };
  }
}

class FakeStream {
  constructor(private tracks: FakeTrack[] = []) {}
  getTracks() {
    return [...this.tracks];
  }
  getAudioTracks() {
    return this.tracks.filter((track) => track.kind === 'audio');
  }
  getVideoTracks() {
    return this.tracks.filter((track) => track.kind === 'video');
  }
  removeTrack(track: FakeTrack) {
    this.tracks = this.tracks.filter((candidate) => candidate !== track);
  }
}

class FakeSocket {
  static readonly OPEN = 1;
  static made: FakeSocket[] = [];
  readyState = 0;
  sent: Array<Record<string, any>> = [];
  listeners: Record<string, Array<(event?: unknown) => void>> = {};
  constructor(readonly url: string) {
    FakeSocket.made.push(this);
  }
  addEventListener(type: string, listener: (event?: unknown) => void) {
    (this.listeners[type] ??= []).push(listener);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  emit(type: string, event?: unknown) {
    for (const listener of this.listeners[type] ?? []) listener(event);
  }
  open() {
    this.readyState = FakeSocket.OPEN;
    this.emit('open');
  }
  receive(message: object) {
    this.emit('message', { data: JSON.stringify(message) });
  }
}

class FakePeerConnection {
  static made: FakePeerConnection[] = [];
  connectionState = 'new';
  /** The options of each createOffer, as JSON. */
  offers: string[] = [];
  localDescription: unknown = null;
  remoteDescription: unknown = null;
  candidates: unknown[] = [];
  listeners: Record<string, Array<() => void>> = {};
  constructor() {
    FakePeerConnection.made.push(this);
  }
  addTrack() {}
  addTransceiver() {}
  getSenders() {
    return [];
  }
  close() {
    this.connectionState = 'closed';
  }
  addEventListener(type: string, listener: () => void) {
    (this.listeners[type] ??= []).push(listener);
  }
  async createOffer(options?: unknown) {
    this.offers.push(JSON.stringify(options ?? null));
    return { type: 'offer', sdp: `offer ${this.offers.length}` };
  }
  async createAnswer() {
    return { type: 'answer', sdp: 'answer' };
  }
  async setLocalDescription(description: unknown) {
    this.localDescription = description;
  }
  async setRemoteDescription(description: unknown) {
    this.remoteDescription = description;
  }
  async addIceCandidate(candidate: unknown) {
    this.candidates.push(candidate);
  }
  becomes(state: string) {
    this.connectionState = state;
    for (const listener of this.listeners.connectionstatechange ?? []) listener();
  }
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

const person = (id: string, name: string, role: string) => ({
  id,
  name,
  role,
  video: true,
  microphoneOn: true,
  cameraOn: true,
});

/** The service's answer to a join: in the room, with `peers` already there. */
const inRoomAs = (name: string, peers: object[]) => ({
  type: 'room',
  you: person('me', name, 'interviewer'),
  iceServers: [],
  maxVideoParticipants: 4,
  videoRefusal: null,
  peers,
});

interface MediaStandIns {
  getUserMedia?: (constraints: MediaStreamConstraints) => Promise<FakeStream>;
  storage?: Map<string, string>;
}

function openRoomPage(
  role: 'interviewer' | 'interviewee' = 'interviewer',
  media: MediaStandIns = {},
) {
  FakeSocket.made = [];
  FakePeerConnection.made = [];
  const elements = new Map<string, FakeElement>();
  const byId = (id: string) => {
    if (!elements.has(id)) elements.set(id, new FakeElement(id));
    return elements.get(id)!;
  };
  Object.assign(byId('room').dataset, {
    live: '/live/room',
    role,
    audioOnly: 'false',
    lobby: '/lobby/interviewer/token',
  });
  // As views/room.njk has them before the script runs.
  for (const id of ['room-left', 'room-stage', 'room-preview', 'room-message', 'admission'])
    byId(id).hidden = true;
  const timers: Array<{ wait: number }> = [];
  const due: Array<() => void> = [];
  const assigned: string[] = [];
  const environment = {
    document: {
      getElementById: byId,
      createElement: (tag: string) => new FakeElement(tag),
    },
    window: { addEventListener() {} },
    navigator: {
      mediaDevices: {
        getUserMedia:
          media.getUserMedia ??
          (async () => new FakeStream([new FakeTrack('audio'), new FakeTrack('video')])),
        enumerateDevices: async () => [],
      },
    },
    storage: media.storage && {
      getItem: (key: string) => media.storage!.get(key) ?? null,
      setItem: (key: string, value: string) => media.storage!.set(key, value),
      removeItem: (key: string) => media.storage!.delete(key),
    },
    location: {
      protocol: 'http:',
      host: 'pages.test',
      assign: (url: string) => assigned.push(url),
    },
    WebSocket: FakeSocket,
    RTCPeerConnection: FakePeerConnection,
    MediaStream: FakeStream,
    setTimeout: (callback: () => void, wait: number) => {
      due.push(callback);
      return timers.push({ wait });
    },
    setInterval: () => 0,
    clearInterval: () => {},
    fetch: async () => {
      throw new Error('no fetch in this test');
    },
  } as unknown as RoomEnvironment;
  new Room(byId('room') as unknown as HTMLElement, environment).start();
  return { byId, timers, due, assigned };
}

/** A page that joined a room where Robin was already (we offer) and Sam came after (Sam offers). */
async function inTheRoom() {
  const page = openRoomPage();
  await settle();
  const socket = FakeSocket.made[0]!;
  socket.open();
  page.byId('join-button').click();
  socket.receive(inRoomAs('Lee', [person('robin', 'Robin', 'interviewee')]));
  await settle();
  socket.receive({ type: 'peer-joined', peer: person('sam', 'Sam', 'interviewer') });
  await settle();
  const [robin, sam] = FakePeerConnection.made;
  return { ...page, socket, robin: robin!, sam: sam! };
}

const waitingState = {
  type: 'state',
  eventStatus: 'STARTED',
  interviewee: { name: 'Robin Applicant', status: 'CHECKED_IN' },
  present: [{ role: 'interviewer', name: 'Lee' }],
  admission: { canAdmit: true, canSendBack: false, refusal: null },
};

describe('the room client (client/room)', () => {
  it('opens the camera and microphone chosen in the lobby, and remembers what it opened', async () => {
    const asked: string[] = [];
    const storage = new Map([
      ['interview-room.camera', 'camera-2'],
      ['interview-room.microphone', 'microphone-2'],
    ]);
    openRoomPage('interviewee', {
      storage,
      getUserMedia: async (constraints) => {
        asked.push(JSON.stringify(constraints));
        return new FakeStream([new FakeTrack('audio'), new FakeTrack('video')]);
      },
    });
    await settle();
    assert.deepEqual(asked, [
      JSON.stringify({
        audio: { deviceId: { exact: 'microphone-2' } },
        video: { deviceId: { exact: 'camera-2' } },
      }),
    ]);
    // What the browser opened is remembered (the fake tracks say audio-1 and video-1).
    assert.equal(storage.get('interview-room.camera'), 'video-1');
    assert.equal(storage.get('interview-room.microphone'), 'audio-1');
  });

  it('forgets a remembered device that is gone and opens the default ones', async () => {
    const asked: string[] = [];
    const storage = new Map([['interview-room.camera', 'unplugged']]);
    openRoomPage('interviewee', {
      storage,
      getUserMedia: async (constraints) => {
        asked.push(JSON.stringify(constraints));
        if (JSON.stringify(constraints).includes('unplugged')) {
          throw Object.assign(new Error('gone'), { name: 'OverconstrainedError' });
        }
        return new FakeStream([new FakeTrack('audio'), new FakeTrack('video')]);
      },
    });
    await settle();
    await settle();
    assert.deepEqual(asked, [
      JSON.stringify({ audio: true, video: { deviceId: { exact: 'unplugged' } } }),
      JSON.stringify({ audio: true, video: true }),
    ]);
    assert.equal(storage.get('interview-room.camera'), 'video-1');
  });

  it('restarts ICE on a failed connection it offered, and leaves the answering side to wait', async () => {
    const { socket, robin, sam } = await inTheRoom();
    assert.deepEqual(robin.offers, ['null'], 'the newcomer offers to who was there');
    assert.deepEqual(sam.offers, [], 'and answers who came after');

    socket.sent = [];
    robin.becomes('failed');
    sam.becomes('failed');
    await settle();
    assert.deepEqual(robin.offers, ['null', '{"iceRestart":true}']);
    assert.deepEqual(sam.offers, [], 'Sam offered, so Sam restarts');
    assert.deepEqual(socket.sent, [
      { type: 'signal', to: 'robin', data: { description: { type: 'offer', sdp: 'offer 2' } } },
    ]);
  });

  it('restarts a few times in a row at most, and again after it connected once more', async () => {
    const { robin } = await inTheRoom();
    for (let attempt = 0; attempt < 5; attempt += 1) {
      robin.becomes('failed');
      await settle();
    }
    assert.equal(robin.offers.length, 1 + 3);
    robin.becomes('connected');
    robin.becomes('failed');
    await settle();
    assert.equal(robin.offers.length, 1 + 4);
  });

  it('answers an offer that overtook the news of its sender, and keeps early candidates', async () => {
    const { socket } = await inTheRoom();
    socket.sent = [];
    const candidate = { candidate: 'candidate:1 1 udp 1 127.0.0.1 9 typ host', sdpMid: '0' };
    socket.receive({ type: 'signal', from: 'kim', data: { candidate } });
    await settle();
    const kim = FakePeerConnection.made[2]!;
    assert.deepEqual(kim.candidates, [], 'held until the description arrives');
    socket.receive({ type: 'signal', from: 'kim', data: { description: { type: 'offer' } } });
    await settle();
    assert.deepEqual(kim.offers, [], 'the one who offered is answered, not offered to');
    assert.deepEqual(kim.candidates, [candidate]);
    assert.deepEqual(socket.sent, [
      { type: 'signal', to: 'kim', data: { description: { type: 'answer', sdp: 'answer' } } },
    ]);
  });

  it('offers Rejoin after leaving, instead of going back to the lobby, and rejoins', async () => {
    const { byId, socket, timers, robin } = await inTheRoom();
    assert.equal(byId('room-left').hidden, true, 'no Rejoin while in the room');
    byId('microphone-button').click();
    assert.equal(byId('microphone-button').textContent, 'Unmute');

    socket.sent = [];
    byId('leave-button').click();
    assert.deepEqual(socket.sent, [{ type: 'leave' }]);
    assert.equal(robin.connectionState, 'closed');
    assert.equal(byId('room-message').textContent, 'You left the room.');
    assert.equal(byId('room-left').hidden, false, 'Rejoin is offered');
    assert.equal(byId('room-stage').hidden, true);
    assert.deepEqual(timers, [], 'the page stays, so that Rejoin can be pressed');

    socket.sent = [];
    byId('rejoin-button').click();
    await settle();
    assert.deepEqual(socket.sent, [{ type: 'join', video: true }]);
    assert.equal(byId('room-left').hidden, true);
    assert.equal(byId('room-message').hidden, true);
    assert.equal(byId('microphone-button').textContent, 'Mute', 'fresh devices are on');
    socket.receive(
      inRoomAs('Lee', [
        person('robin', 'Robin', 'interviewee'),
        person('sam', 'Sam', 'interviewer'),
      ]),
    );
    await settle();
    assert.equal(byId('room-stage').hidden, false);
    assert.equal(FakePeerConnection.made.length, 2 + 2, 'a new connection to each');
  });

  it('goes back to the lobby when the service sends the person there, without Rejoin', async () => {
    const { byId, socket, timers } = await inTheRoom();
    socket.receive({ type: 'removed', message: 'You were sent back to the lobby.' });
    await settle();
    assert.equal(byId('room-left').hidden, true);
    assert.deepEqual(timers, [{ wait: 2500 }]);
  });

  it('reconnects the live connection to rejoin when it was lost while out of the room', async () => {
    const { byId, socket } = await inTheRoom();
    byId('leave-button').click();
    socket.readyState = 3;
    socket.emit('close');
    byId('rejoin-button').click();
    await settle();
    const again = FakeSocket.made[1]!;
    assert.ok(again, 'a new live connection');
    again.open();
    assert.deepEqual(again.sent, [{ type: 'join', video: true }]);
  });

  it('reconnects and rejoins by itself when the connection is lost in the room', async () => {
    const { byId, socket, timers, due, robin } = await inTheRoom();
    socket.readyState = 3;
    socket.emit('close');
    assert.equal(byId('connection-state').textContent, 'The connection was lost. Reconnecting…');
    assert.equal(robin.connectionState, 'closed', 'its peer connections go with it');
    assert.deepEqual(timers, [{ wait: 4000 }], 'a connection lost at once waits longer');
    due.shift()!();
    const again = FakeSocket.made[1]!;
    assert.deepEqual(again.sent, []);
    again.open();
    assert.deepEqual(again.sent, [{ type: 'join', video: true }], 'back into the room');
  });

  it('shows an interviewer the interviewee waiting, and admits them over the live connection', async () => {
    const { byId } = openRoomPage('interviewer');
    await settle();
    const socket = FakeSocket.made[0]!;
    socket.open();
    socket.receive(waitingState);
    assert.equal(byId('admission').hidden, false);
    assert.equal(byId('admission-text').textContent, 'Robin Applicant is waiting in the lobby.');
    assert.equal(byId('admit-button').hidden, false);
    assert.equal(byId('send-back-button').hidden, true);
    assert.equal(byId('room-present').textContent, 'In the room now: Lee (interviewer).');

    byId('admit-button').click();
    assert.deepEqual(socket.sent, [{ type: 'admit' }]);
    assert.equal(byId('admit-button').disabled, true, 'pressed once');
    socket.receive({ type: 'admission-refused', message: 'The interviewee left meanwhile.' });
    assert.equal(byId('admission-message').textContent, 'The interviewee left meanwhile.');
    assert.equal(byId('admit-button').disabled, false);

    socket.receive({
      ...waitingState,
      interviewee: { name: 'Robin Applicant', status: 'INTERVIEWING' },
      admission: { canAdmit: false, canSendBack: true, refusal: null },
    });
    assert.equal(byId('admission-text').textContent, 'Robin Applicant is in the interview.');
    assert.equal(byId('admit-button').hidden, true);
    assert.equal(byId('send-back-button').hidden, false);
    assert.equal(byId('admission-message').hidden, true);
    socket.sent = [];
    byId('send-back-button').click();
    assert.deepEqual(socket.sent, [{ type: 'send-back' }]);

    socket.receive({
      ...waitingState,
      interviewee: { name: 'Robin Applicant', status: 'INTERVIEWED' },
      admission: { canAdmit: false, canSendBack: false, refusal: null },
    });
    assert.equal(byId('admission').hidden, true, 'nothing to do once the interview is over');
  });

  it('shows the interviewee who is in the room, and no admission controls', async () => {
    const { byId } = openRoomPage('interviewee');
    await settle();
    const socket = FakeSocket.made[0]!;
    socket.open();
    socket.receive(waitingState);
    assert.equal(byId('room-present').textContent, 'In the room now: Lee (interviewer).');
    assert.equal(byId('admission').hidden, true);
  });
});
