import type { RoomEnvironment } from './environment.js';
import type { RoomPage } from './page.js';

const DEVICE_PROBLEMS: Record<string, string> = {
  NotAllowedError: 'permission to use it was refused',
  SecurityError: 'permission to use it was refused',
  NotFoundError: 'none was found',
  OverconstrainedError: 'the chosen one is not available',
  NotReadableError: 'another application is using it',
};

/**
 * Where the lobby's device check (public/device-check.js) keeps the ids of the camera and the
 * microphone the person chose; the room opens the same ones and remembers a choice made here.
 */
const DEVICE_KEYS = { audio: 'interview-room.microphone', video: 'interview-room.camera' } as const;

/** A remembered device that is gone or changed makes getUserMedia fail with these. */
const STALE_DEVICE = new Set(['OverconstrainedError', 'NotFoundError']);

function problemOf(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  return (name && DEVICE_PROBLEMS[name]) || 'it could not be started';
}

/** The person's camera and microphone: opened, chosen, listed, and shown in the preview. */
export class Devices {
  stream: MediaStream;

  constructor(
    private readonly page: RoomPage,
    private readonly env: RoomEnvironment,
  ) {
    this.stream = new env.MediaStream();
  }

  /** Opens the chosen microphone (and camera), falling back to audio alone, then to nothing. */
  async open(): Promise<void> {
    for (const track of this.stream.getTracks()) track.stop();
    const media = this.env.navigator.mediaDevices!;
    let audio = this.chosen('microphone-select', 'audio');
    let video = this.page.audioOnly ? false : this.chosen('camera-select', 'video');
    const messages: string[] = [];
    let stream: MediaStream | null = null;
    try {
      stream = await media.getUserMedia({ audio, video }).catch((error: unknown) => {
        const name = (error as { name?: string } | null)?.name ?? '';
        if (!STALE_DEVICE.has(name) || !this.forgetRemembered()) throw error;
        // A device chosen in the lobby is gone: the default ones, as if none had been chosen.
        audio = this.chosen('microphone-select', 'audio');
        video = this.page.audioOnly ? false : this.chosen('camera-select', 'video');
        return media.getUserMedia({ audio, video });
      });
    } catch (error) {
      if (video) {
        messages.push(`We could not use your camera: ${problemOf(error)}.`);
        try {
          stream = await media.getUserMedia({ audio });
          messages.push('You can still join with audio only.');
        } catch (audioError) {
          messages.push(`We could not use your microphone either: ${problemOf(audioError)}.`);
        }
      } else {
        messages.push(`We could not use your microphone: ${problemOf(error)}.`);
      }
      if (!stream) {
        messages.push(
          'You can still join to see and hear the others. To be heard, allow this site to use ' +
            'your microphone in the browser settings, or connect one, then reload the page.',
        );
      }
    }
    this.stream = stream ?? new this.env.MediaStream();
    this.remember();
    this.page.say('device-message', messages.join(' '));
    const preview = this.page.byId<HTMLVideoElement>('preview-video');
    if (preview) preview.srcObject = this.hasVideo ? this.stream : null;
    await this.list();
  }

  get hasVideo(): boolean {
    return this.stream.getVideoTracks().length > 0;
  }

  /** Stops and drops the camera: the room took this person with audio only. */
  dropVideo(): void {
    for (const track of this.stream.getVideoTracks()) {
      track.stop();
      this.stream.removeTrack(track);
    }
  }

  stopAll(): void {
    for (const track of this.stream.getTracks()) track.stop();
  }

  /** The device picked in the page's list, else the one remembered from the lobby, else any. */
  private chosen(id: string, kind: 'audio' | 'video'): boolean | MediaTrackConstraints {
    const picked =
      this.page.byId<HTMLSelectElement>(id)?.value || this.env.storage?.getItem(DEVICE_KEYS[kind]);
    // Chromium opens the default device for an `ideal` id: only `exact` holds to the choice.
    return picked ? { deviceId: { exact: picked } } : true;
  }

  /** Forgets the remembered devices; whether there were any. */
  private forgetRemembered(): boolean {
    const storage = this.env.storage;
    const had = Object.values(DEVICE_KEYS).some((key) => storage?.getItem(key));
    for (const key of Object.values(DEVICE_KEYS)) storage?.removeItem(key);
    return had;
  }

  /** Remembers the devices now open, for the next visit (and the lobby's check). */
  private remember(): void {
    for (const track of this.stream.getTracks()) {
      const deviceId = track.getSettings?.().deviceId;
      const key = DEVICE_KEYS[track.kind as 'audio' | 'video'];
      if (deviceId && key) this.env.storage?.setItem(key, deviceId);
    }
  }

  private async list(): Promise<void> {
    const media = this.env.navigator.mediaDevices;
    if (!media?.enumerateDevices) return;
    const devices = await media.enumerateDevices();
    this.fill('microphone-select', devices, 'audioinput', this.stream.getAudioTracks()[0]);
    this.fill('camera-select', devices, 'videoinput', this.stream.getVideoTracks()[0]);
  }

  private fill(
    id: string,
    devices: MediaDeviceInfo[],
    kind: MediaDeviceKind,
    track: MediaStreamTrack | undefined,
  ): void {
    const select = this.page.byId<HTMLSelectElement>(id);
    if (!select) return;
    const current = track ? track.getSettings().deviceId : select.value;
    select.replaceChildren();
    devices
      .filter((device) => device.kind === kind)
      .forEach((device, index) => {
        const option = this.page.create('option');
        option.value = device.deviceId;
        option.textContent =
          device.label || `${kind === 'videoinput' ? 'Camera' : 'Microphone'} ${index + 1}`;
        option.selected = device.deviceId === current;
        select.append(option);
      });
  }
}
