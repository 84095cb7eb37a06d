import type { RoomEnvironment } from './environment.js';
import type { RoomPage } from './page.js';

const DEVICE_PROBLEMS: Record<string, string> = {
  NotAllowedError: 'permission to use it was refused',
  SecurityError: 'permission to use it was refused',
  NotFoundError: 'none was found',
  OverconstrainedError: 'the chosen one is not available',
  NotReadableError: 'another application is using it',
};

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
    const audio = this.chosen('microphone-select');
    const video = this.page.audioOnly ? false : this.chosen('camera-select');
    const messages: string[] = [];
    let stream: MediaStream | null = null;
    try {
      stream = await media.getUserMedia({ audio, video });
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

  private chosen(id: string): boolean | MediaTrackConstraints {
    const select = this.page.byId<HTMLSelectElement>(id);
    return select?.value ? { deviceId: { exact: select.value } } : true;
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
