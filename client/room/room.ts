import type { Peer, ServiceMessage } from '../../src/room/protocol/messages.js';
import { AdmissionPanel } from './admission-panel.js';
import { Devices } from './devices.js';
import type { RoomEnvironment } from './environment.js';
import { LiveLink } from './live-link.js';
import { RoomPage } from './page.js';
import { PeerMesh } from './peer-mesh.js';
import { Recording } from './recording.js';
import { Stage } from './stage.js';

/** How long "sent back" or "ended" stays on the page before it goes to the lobby. */
const BACK_TO_LOBBY_MS = 2500;

/**
 * The interview room page: a peer-to-peer WebRTC mesh between everyone in it, signalled over
 * the lobby's live connection (src/room, the room protocol). Before joining, the person sees
 * their camera and chooses devices; in the room, they can mute, turn the camera off, leave and
 * rejoin, and interviewers record, admit and send back.
 */
export class Room {
  private readonly page: RoomPage;
  private readonly devices: Devices;
  private readonly stage: Stage;
  private readonly mesh: PeerMesh;
  private readonly link: LiveLink;
  private readonly recording: Recording;
  private readonly admission: AdmissionPanel;
  private you: Peer | null = null;
  private joined = false;
  /** Out of the room by choice or by the service: a lost connection is not reconnected. */
  private left = false;

  constructor(
    root: HTMLElement,
    private readonly env: RoomEnvironment,
  ) {
    this.page = new RoomPage(root, env);
    this.devices = new Devices(this.page, env);
    this.stage = new Stage(this.page);
    this.mesh = new PeerMesh(env, this.page.audioOnly, () => this.devices.stream, {
      signal: (to, data) => this.link.send({ type: 'signal', to, data }),
      track: (entry, stream) => {
        this.stage.mediaOf(entry).srcObject = stream;
        this.recording.addStream(stream);
      },
      changed: () => this.renderParticipants(),
      removed: (entry) => this.stage.removeTile(entry),
      problem: (text) => this.page.say('room-message', text),
    });
    this.link = new LiveLink(env, this.page.data.live ?? '', {
      message: (message) =>
        this.handle(message).catch((error: Error) =>
          this.page.say('room-message', `Something went wrong: ${error.message}`),
        ),
      lost: () => this.lost(),
      rejoin: () => this.join(),
    });
    this.recording = new Recording(this.page, env, {
      ownStream: () => this.devices.stream,
      peerStreams: () =>
        [...this.mesh.entries.values()]
          .map(({ tile }) => tile?.querySelector<HTMLMediaElement>('video, audio')?.srcObject)
          .filter((stream): stream is MediaStream => Boolean(stream)),
      videos: () => this.stage.playingVideos(),
    });
    this.admission = new AdmissionPanel(this.page, (message) => this.link.send(message));
  }

  /** Wires the controls, opens the devices and connects. */
  start(): void {
    const { page, env } = this;
    page.show('room-preview', true);
    page.byId('join-button')!.addEventListener('click', () => this.join());
    for (const id of ['camera-select', 'microphone-select']) {
      page.byId(id)?.addEventListener('change', () => void this.openDevices());
    }
    const microphone = page.byId('microphone-button')!;
    microphone.addEventListener('click', () => this.toggle('audio', microphone, 'Mute', 'Unmute'));
    const camera = page.byId('camera-button');
    camera?.addEventListener('click', () =>
      this.toggle('video', camera, 'Turn camera off', 'Turn camera on'),
    );
    const record = page.byId('record-button');
    if (record && page.isInterviewer) {
      record.addEventListener('click', () => void this.recording.toggle());
    }
    page.byId('leave-button')!.addEventListener('click', () => this.leaveByChoice());
    page
      .byId('rejoin-button')!
      .addEventListener('click', () =>
        this.rejoin().catch((error: Error) =>
          page.say('room-message', `Rejoining failed: ${error.message}`),
        ),
      );
    env.window.addEventListener('pagehide', () => void this.recording.stop());
    if (!env.navigator.mediaDevices || !env.RTCPeerConnection) {
      page.say(
        'device-message',
        'This browser cannot join video calls. Use a recent Chrome, Edge, Firefox or Safari.',
      );
      page.byId<HTMLButtonElement>('join-button')!.disabled = true;
      return;
    }
    // Joining before the camera is open would join without video: Join waits for the devices.
    const joinButton = page.byId<HTMLButtonElement>('join-button')!;
    joinButton.disabled = true;
    void this.openDevices().finally(() => (joinButton.disabled = false));
    this.link.connect();
  }

  private async openDevices(): Promise<void> {
    await this.devices.open();
    this.mesh.replaceTracks();
    this.renderSelf();
  }

  private join(): void {
    this.page.byId<HTMLButtonElement>('join-button')!.disabled = true;
    this.link.send({ type: 'join', video: this.devices.hasVideo });
  }

  private async handle(message: ServiceMessage): Promise<void> {
    switch (message.type) {
      case 'room':
        return this.enter(message);
      case 'peer-joined':
        this.mesh.add(message.peer, false);
        return;
      case 'peer-left':
        return this.mesh.remove(message.peer.id);
      case 'peer-media':
        return this.mesh.update(message.peer);
      case 'signal':
        return this.mesh.onSignal(message.from, message.data);
      case 'recording':
        return this.recording.onNotice(message);
      case 'state':
        return this.admission.render(message);
      case 'admission-refused':
        return this.admission.refused(message.message);
      case 'refused':
        this.page.byId<HTMLButtonElement>('join-button')!.disabled = false;
        return this.page.say('room-message', message.message);
      case 'removed':
      case 'ended':
        return this.leave(message.message, true);
      case 'hello':
      case 'changed':
      case 'invalid':
        return;
    }
  }

  private enter(message: Extract<ServiceMessage, { type: 'room' }>): void {
    const { page } = this;
    this.you = message.you;
    this.mesh.iceServers = message.iceServers;
    this.joined = true;
    page.say('room-message', '');
    if (message.videoRefusal) {
      this.devices.dropVideo();
      page.say('video-notice', message.videoRefusal);
    }
    page.show('room-preview', false);
    page.show('room-stage', true);
    const preview = page.byId<HTMLVideoElement>('preview-video');
    if (preview) preview.srcObject = null;
    this.renderSelf();
    for (const peer of message.peers) this.mesh.add(peer, true);
    this.renderParticipants();
  }

  /** The live connection was lost: out of the room until it is back (and rejoined if we were in). */
  private lost(): { reconnect: boolean; rejoin: boolean } {
    if (this.left) return { reconnect: false, rejoin: false };
    const wasJoined = this.joined;
    this.mesh.closeAll();
    this.joined = false;
    this.page.say('connection-state', 'The connection was lost. Reconnecting…');
    return { reconnect: true, rejoin: wasJoined };
  }

  private renderSelf(): void {
    if (this.joined) this.stage.renderSelf(this.devices.stream);
  }

  private renderParticipants(): void {
    this.stage.renderParticipants(this.you, this.mesh.entries.values(), this.joined);
  }

  private toggle(kind: 'audio' | 'video', button: HTMLElement, onWords: string, offWords: string) {
    const stream = this.devices.stream;
    const tracks = kind === 'audio' ? stream.getAudioTracks() : stream.getVideoTracks();
    if (!tracks.length) return;
    const on = !tracks[0]!.enabled;
    for (const track of tracks) track.enabled = on;
    button.textContent = on ? onWords : offWords;
    button.setAttribute('aria-pressed', String(!on));
    if (!this.you) return;
    this.you = {
      ...this.you,
      microphoneOn: kind === 'audio' ? on : this.you.microphoneOn,
      cameraOn: kind === 'video' ? on : this.you.cameraOn,
    };
    const { microphoneOn, cameraOn } = this.you;
    this.link.send({ type: 'media', microphoneOn, cameraOn });
    this.renderParticipants();
  }

  /** Out of the room, by the person's own choice (who may rejoin) or because the service said so. */
  private leave(message: string, backToLobby: boolean): void {
    const { page } = this;
    this.left = true;
    void this.recording.stop();
    this.link.send({ type: 'leave' });
    this.mesh.closeAll();
    this.devices.stopAll();
    this.joined = false;
    this.you = null;
    page.show('room-stage', false);
    page.show('room-preview', false);
    page.say('recording-notice', '');
    page.say('room-message', message);
    if (backToLobby) {
      this.env.setTimeout(() => this.env.location.assign(page.data.lobby ?? '/'), BACK_TO_LOBBY_MS);
    }
  }

  /** "You left the room" offers this: back in with fresh devices, over the same connection. */
  private leaveByChoice(): void {
    this.leave('You left the room.', false);
    this.page.show('room-left', true);
  }

  private async rejoin(): Promise<void> {
    const { page } = this;
    page.show('room-left', false);
    page.say('room-message', '');
    this.left = false;
    await this.openDevices();
    resetToggle(page.byId('microphone-button'), 'Mute');
    resetToggle(page.byId('camera-button'), 'Turn camera off');
    if (this.link.isOpen) return this.join();
    this.link.connect(() => this.join());
  }
}

function resetToggle(button: HTMLElement | null, words: string): void {
  if (!button) return;
  button.textContent = words;
  button.setAttribute('aria-pressed', 'false');
}
