import type { Peer } from '../../src/room/protocol/messages.js';
import type { RoomPage } from './page.js';
import type { PeerEntry } from './peer-mesh.js';

const CONNECTION_WORDS: Partial<Record<RTCPeerConnectionState, string>> = {
  new: 'connecting',
  connecting: 'connecting',
  connected: 'connected',
  disconnected: 'connection interrupted',
  failed: 'could not connect',
  closed: 'left',
};

/**
 * What the room shows of the people in it: a tile per person (video, or audio in an audio-only
 * room; one's own muted and mirrored by the stylesheet), the "Who is here" list and how many
 * connections are up.
 */
export class Stage {
  constructor(private readonly page: RoomPage) {}

  private get videos(): HTMLElement {
    return this.page.byId('videos')!;
  }

  /** The media element of a peer's tile, made on first use. */
  mediaOf(entry: PeerEntry): HTMLMediaElement {
    if (!entry.tile) {
      entry.tile = this.newTile(entry.peer.name, false);
      entry.tile.dataset.peer = entry.peer.id;
    }
    return entry.tile.querySelector('video, audio')!;
  }

  removeTile(entry: PeerEntry): void {
    entry.tile?.remove();
  }

  /** Our own tile, showing `stream`. */
  renderSelf(stream: MediaStream): void {
    let tile = this.videos.querySelector<HTMLElement>('.tile.mine');
    if (!tile) tile = this.newTile('You', true);
    const media = tile.querySelector<HTMLMediaElement>('video, audio')!;
    if (media.srcObject !== stream) media.srcObject = stream;
  }

  /** The videos on the stage with a picture, in page order (what the recording mixes). */
  playingVideos(): HTMLVideoElement[] {
    return [...this.videos.querySelectorAll('video')].filter((video) => video.videoWidth);
  }

  renderParticipants(you: Peer | null, entries: Iterable<PeerEntry>, joined: boolean): void {
    const list = this.page.byId('participants')!;
    list.replaceChildren();
    const others = [...entries];
    const people: Array<Peer & { connection: RTCPeerConnectionState | null }> = [];
    if (you) people.push({ ...you, name: `${you.name} (you)`, connection: null });
    for (const { peer, pc } of others) people.push({ ...peer, connection: pc.connectionState });
    for (const person of people) {
      const item = this.page.create('li');
      const details = [person.role === 'interviewer' ? 'interviewer' : 'interviewee'];
      if (person.connection) {
        details.push(CONNECTION_WORDS[person.connection] ?? person.connection);
      }
      if (!person.microphoneOn) details.push('muted');
      if (!this.page.audioOnly && !person.cameraOn) details.push('camera off');
      item.textContent = `${person.name} · ${details.join(' · ')}`;
      list.append(item);
    }
    const connected = others.filter(({ pc }) => pc.connectionState === 'connected').length;
    const count = others.length;
    this.page.say(
      'connection-state',
      !joined
        ? 'Not in the room.'
        : count === 0
          ? 'You are in the room. Waiting for the others to join…'
          : `Connected to ${connected} of ${count} ${count === 1 ? 'person' : 'people'} in the room.`,
    );
  }

  private newTile(name: string, mine: boolean): HTMLElement {
    const tile = this.page.create('figure');
    tile.className = mine ? 'tile mine' : 'tile';
    const media = this.page.create(this.page.audioOnly ? 'audio' : 'video');
    media.autoplay = true;
    if (!this.page.audioOnly) (media as HTMLVideoElement).playsInline = true;
    if (mine) media.muted = true;
    const caption = this.page.create('figcaption');
    caption.textContent = name;
    tile.append(media, caption);
    this.videos.append(tile);
    return tile;
  }
}
