import type { ServiceMessage } from '../../src/room/protocol/messages.js';
import { ChunkUploads } from './chunk-uploads.js';
import type { RoomEnvironment } from './environment.js';
import { Mixer } from './mixer.js';
import type { RoomPage } from './page.js';

type RecordingNotice = Extract<ServiceMessage, { type: 'recording' }>;

const MIME_TYPES = [
  'video/webm;codecs=vp8,opus',
  'video/webm',
  'audio/webm;codecs=opus',
  'audio/webm',
];

/** The sources of what is recorded: our own stream and every peer's media. */
export interface RecordedMedia {
  ownStream(): MediaStream;
  peerStreams(): MediaStream[];
  videos(): HTMLVideoElement[];
}

/**
 * Recording the room: everyone is told before it begins (the service announces a start a few
 * seconds ahead), and the interviewer who started it mixes every picture and voice into one
 * WebM that is uploaded in chunks while it records.
 */
export class Recording {
  private running: { addStream(stream: MediaStream): void; stop(): Promise<void> } | null = null;
  /** The recording this page asked to start, once the service has created it. */
  private target: { id: string; chunkUrl: string; scheduled: boolean } | null = null;
  /** Recording id → when it begins, as the room was told (the news may beat our own answer). */
  private readonly announcements = new Map<string, number>();
  private noticeTimer: unknown = null;

  constructor(
    private readonly page: RoomPage,
    private readonly env: RoomEnvironment,
    private readonly media: RecordedMedia,
  ) {}

  /** A peer's media arrived while we record: it is mixed in too. */
  addStream(stream: MediaStream): void {
    this.running?.addStream(stream);
  }

  async stop(): Promise<void> {
    await this.running?.stop();
  }

  /** The service's news of a recording that starts or stopped. */
  onNotice(message: RecordingNotice): void {
    this.env.clearInterval(this.noticeTimer);
    const button = this.page.byId('record-button');
    if (!message.active) {
      this.page.say('recording-notice', '');
      if (button) button.textContent = 'Start recording';
      return;
    }
    if (button) button.textContent = 'Stop recording';
    const show = () => {
      const seconds = Math.ceil((message.startsAt - Date.now()) / 1000);
      if (seconds > 0) {
        this.page.say(
          'recording-notice',
          `This interview will be recorded. Recording starts in ${seconds} s.`,
        );
      } else {
        this.env.clearInterval(this.noticeTimer);
        this.page.say('recording-notice', '● Recording: this interview is being recorded.');
      }
    };
    show();
    this.noticeTimer = this.env.setInterval(show, 250);
    this.announcements.set(message.recordingId, message.startsAt);
    this.startWhenAnnounced();
  }

  /** The Start / Stop recording button. */
  async toggle(): Promise<void> {
    const button = this.page.byId<HTMLButtonElement>('record-button')!;
    const base = this.page.data.recordings;
    button.disabled = true;
    try {
      if (this.running) {
        await this.running.stop();
      } else if (this.target) {
        // Stopped during the notice, before anything was recorded.
        const { id } = this.target;
        this.target = null;
        await this.page.api(`${base}/${id}/stop`, { method: 'POST' });
      } else {
        const started = (await this.page.api(`${base}`, { method: 'POST' })) as {
          id: string;
          chunkUrl: string;
        };
        this.target = { ...started, scheduled: false };
        this.startWhenAnnounced();
      }
    } catch (error) {
      this.page.say('room-message', `Recording: ${(error as Error).message}`);
    } finally {
      button.disabled = false;
    }
  }

  /** Starts our recorder once both our start was answered and the room was told about it. */
  private startWhenAnnounced(): void {
    const target = this.target;
    const startsAt = target && this.announcements.get(target.id);
    if (!target || target.scheduled || startsAt === undefined || startsAt === null) return;
    target.scheduled = true;
    const wait = Math.max(0, startsAt - Date.now());
    this.env.setTimeout(() => this.startRecorder(target.id), wait);
  }

  private startRecorder(recordingId: string): void {
    const target = this.target;
    if (!target || target.id !== recordingId) return;
    const mixer = new Mixer(this.env, this.page.audioOnly, this.media.videos);
    mixer.addStream(this.media.ownStream());
    for (const stream of this.media.peerStreams()) mixer.addStream(stream);
    const uploads = new ChunkUploads(
      this.env,
      target.chunkUrl,
      this.page.data.csrf ?? '',
      (problem) =>
        this.page.say(
          'room-message',
          `The recording could not be saved past this point: ${problem}`,
        ),
    );
    const { MediaRecorder } = this.env;
    const mimeType = MIME_TYPES.find((type) => MediaRecorder.isTypeSupported(type));
    const recorder = new MediaRecorder(mixer.stream(), mimeType ? { mimeType } : undefined);
    recorder.addEventListener('dataavailable', (event: BlobEvent) => {
      if (event.data.size) uploads.add(event.data);
    });
    const stopped = new Promise((resolve) =>
      recorder.addEventListener('stop', resolve, { once: true }),
    );
    recorder.start(2000);
    this.running = {
      addStream: (stream) => mixer.addStream(stream),
      stop: async () => {
        if (!this.running) return;
        this.running = null;
        if (recorder.state !== 'inactive') recorder.stop();
        await stopped;
        mixer.close();
        await uploads.drained();
        this.target = null;
        await this.page.api(`${this.page.data.recordings}/${recordingId}/stop`, { method: 'POST' });
      },
    };
  }
}
