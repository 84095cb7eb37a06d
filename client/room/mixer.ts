import type { RoomEnvironment } from './environment.js';

const WIDTH = 1280;
const HEIGHT = 720;
const FRAMES_PER_SECOND = 25;

/**
 * The largest rectangle with the picture's aspect ratio that fits a tile, centred in it: a 4:3
 * camera in a tall tile gets bars above and below instead of being stretched.
 */
export function letterboxed(
  pictureWidth: number,
  pictureHeight: number,
  tileWidth: number,
  tileHeight: number,
): { x: number; y: number; width: number; height: number } {
  const scale = Math.min(tileWidth / pictureWidth, tileHeight / pictureHeight);
  const width = pictureWidth * scale;
  const height = pictureHeight * scale;
  return { x: (tileWidth - width) / 2, y: (tileHeight - height) / 2, width, height };
}

/** Every picture side by side on a canvas (a grid of letterboxed tiles) and every voice in one track. */
export class Mixer {
  private readonly audio: AudioContext;
  private readonly destination: MediaStreamAudioDestinationNode;
  private readonly sources: MediaStreamAudioSourceNode[] = [];
  private readonly canvas: HTMLCanvasElement | null;
  private readonly context: CanvasRenderingContext2D | null = null;
  private readonly timer: unknown = null;

  constructor(
    private readonly env: RoomEnvironment,
    audioOnly: boolean,
    /** The videos to draw now, in order. */
    private readonly videos: () => HTMLVideoElement[],
  ) {
    this.audio = new env.AudioContext();
    this.destination = this.audio.createMediaStreamDestination();
    this.canvas = audioOnly ? null : env.document.createElement('canvas');
    if (this.canvas) {
      this.canvas.width = WIDTH;
      this.canvas.height = HEIGHT;
      // Opaque: Chrome records a canvas with alpha as BlockGroups with an alpha layer.
      this.context = this.canvas.getContext('2d', { alpha: false });
      this.timer = env.setInterval(() => this.draw(), 1000 / FRAMES_PER_SECOND);
    }
  }

  addStream(stream: MediaStream): void {
    if (!stream.getAudioTracks().length) return;
    const source = this.audio.createMediaStreamSource(stream);
    source.connect(this.destination);
    this.sources.push(source);
  }

  stream(): MediaStream {
    const tracks = [...this.destination.stream.getAudioTracks()];
    if (this.canvas) {
      tracks.unshift(...this.canvas.captureStream(FRAMES_PER_SECOND).getVideoTracks());
    }
    return new this.env.MediaStream(tracks);
  }

  close(): void {
    this.env.clearInterval(this.timer);
    for (const source of this.sources) source.disconnect();
    void this.audio.close();
  }

  private draw(): void {
    const { canvas, context } = this;
    if (!canvas || !context) return;
    const videos = this.videos();
    context.fillStyle = '#111';
    context.fillRect(0, 0, canvas.width, canvas.height);
    const columns = Math.ceil(Math.sqrt(videos.length || 1));
    const rows = Math.ceil((videos.length || 1) / columns);
    const width = canvas.width / columns;
    const height = canvas.height / rows;
    videos.forEach((video, index) => {
      const tile = { x: (index % columns) * width, y: Math.floor(index / columns) * height };
      const picture = letterboxed(video.videoWidth, video.videoHeight, width, height);
      context.drawImage(
        video,
        tile.x + picture.x,
        tile.y + picture.y,
        picture.width,
        picture.height,
      );
    });
  }
}
