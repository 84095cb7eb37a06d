import type { Peer, SignalData } from '../../src/room/protocol/messages.js';
import type { RoomEnvironment } from './environment.js';

/**
 * A connection whose network path failed (a network change, a NAT binding that lapsed) gets new
 * ICE candidates over the same connection: the offerer offers again with an ICE restart, the
 * answerer answers it as any offer. A few times in a row at most, until it connects again.
 */
const MOST_ICE_RESTARTS = 3;

/** One other person in the room and our peer connection to them. */
export interface PeerEntry {
  peer: Peer;
  pc: RTCPeerConnection;
  /** Their tile on the page, once their media arrived. */
  tile: HTMLElement | null;
  /** ICE candidates that arrived before their description. */
  candidates: RTCIceCandidateInit[];
  /** We offered: we are the side that restarts a failed connection, so both never offer at once. */
  offerer: boolean;
  restarts: number;
}

export interface MeshHooks {
  signal(to: string, data: SignalData): void;
  /** Media of a peer arrived. */
  track(entry: PeerEntry, stream: MediaStream): void;
  /** Somebody joined, left, or their connection's state changed. */
  changed(): void;
  removed(entry: PeerEntry): void;
  problem(text: string): void;
}

/**
 * The WebRTC mesh: one peer connection to everyone else in the room. Each newcomer offers a
 * connection to everyone already present; the others answer.
 */
export class PeerMesh {
  readonly entries = new Map<string, PeerEntry>();
  iceServers: RTCIceServer[] = [];

  constructor(
    private readonly env: RoomEnvironment,
    private readonly audioOnly: boolean,
    /** Our own camera and microphone, as they are now. */
    private readonly ownStream: () => MediaStream,
    private readonly hooks: MeshHooks,
  ) {}

  add(peer: Peer, weOffer: boolean): PeerEntry {
    let entry = this.entries.get(peer.id);
    if (!entry) {
      const pc = new this.env.RTCPeerConnection!({ iceServers: this.iceServers });
      entry = { peer, pc, tile: null, candidates: [], offerer: weOffer, restarts: 0 };
      this.entries.set(peer.id, entry);
      this.wire(entry);
    } else {
      entry.peer = peer;
    }
    const caption = entry.tile?.querySelector('figcaption');
    if (caption) caption.textContent = peer.name;
    this.hooks.changed();
    if (weOffer) void this.offer(entry);
    return entry;
  }

  update(peer: Peer): void {
    const entry = this.entries.get(peer.id);
    if (entry) entry.peer = peer;
    this.hooks.changed();
  }

  remove(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    entry.pc.close();
    this.entries.delete(id);
    this.hooks.removed(entry);
    this.hooks.changed();
  }

  closeAll(): void {
    for (const id of [...this.entries.keys()]) this.remove(id);
  }

  /** Our tracks changed (another camera or microphone chosen): every connection sends them. */
  replaceTracks(): void {
    const stream = this.ownStream();
    for (const { pc } of this.entries.values()) {
      for (const sender of pc.getSenders()) {
        const kind = sender.track?.kind ?? null;
        const next = kind === 'audio' ? stream.getAudioTracks()[0] : stream.getVideoTracks()[0];
        if (kind && next) void sender.replaceTrack(next);
      }
    }
  }

  async onSignal(from: string, data: SignalData): Promise<void> {
    // An offer can overtake the news that its sender joined.
    const entry =
      this.entries.get(from) ??
      this.add(
        {
          id: from,
          name: 'Someone joining',
          role: 'interviewer',
          video: true,
          microphoneOn: true,
          cameraOn: true,
        },
        false,
      );
    const { pc } = entry;
    if ('description' in data) {
      await pc.setRemoteDescription(data.description);
      if (data.description.type === 'offer') {
        await pc.setLocalDescription(await pc.createAnswer());
        this.hooks.signal(from, { description: descriptionOf(pc) });
      }
      for (const candidate of entry.candidates.splice(0)) await pc.addIceCandidate(candidate);
    } else if (pc.remoteDescription) {
      await pc.addIceCandidate(data.candidate);
    } else {
      entry.candidates.push(data.candidate);
    }
  }

  private wire(entry: PeerEntry): void {
    const { pc } = entry;
    const stream = this.ownStream();
    for (const track of stream.getTracks()) pc.addTrack(track, stream);
    if (!stream.getAudioTracks().length) pc.addTransceiver('audio', { direction: 'recvonly' });
    if (!this.audioOnly && !stream.getVideoTracks().length) {
      pc.addTransceiver('video', { direction: 'recvonly' });
    }
    pc.addEventListener('icecandidate', (event: RTCPeerConnectionIceEvent) => {
      if (event.candidate) {
        this.hooks.signal(entry.peer.id, { candidate: event.candidate.toJSON() as IceInit });
      }
    });
    pc.addEventListener('track', (event: RTCTrackEvent) => {
      this.hooks.track(entry, event.streams[0] ?? new this.env.MediaStream([event.track]));
    });
    pc.addEventListener('connectionstatechange', () => {
      if (pc.connectionState === 'connected') entry.restarts = 0;
      if (pc.connectionState === 'failed') this.restartIce(entry);
      this.hooks.changed();
    });
  }

  private restartIce(entry: PeerEntry): void {
    if (!entry.offerer || entry.restarts >= MOST_ICE_RESTARTS) return;
    if (this.entries.get(entry.peer.id) !== entry) return;
    entry.restarts += 1;
    this.offer(entry, { iceRestart: true }).catch((error: Error) =>
      this.hooks.problem(`Reconnecting to ${entry.peer.name} failed: ${error.message}`),
    );
  }

  private async offer(entry: PeerEntry, options?: RTCOfferOptions): Promise<void> {
    const description = await entry.pc.createOffer(options);
    await entry.pc.setLocalDescription(description);
    this.hooks.signal(entry.peer.id, { description: descriptionOf(entry.pc) });
  }
}

type IceInit = { candidate: string } & RTCIceCandidateInit;

/** The local description as it travels: what `RTCSessionDescription.toJSON()` holds. */
function descriptionOf(pc: RTCPeerConnection): { type: RTCSdpType; sdp?: string } {
  const description = pc.localDescription!;
  return { type: description.type, sdp: description.sdp };
}
