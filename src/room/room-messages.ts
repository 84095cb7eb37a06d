/**
 * What travels between the service processes about interview rooms (over the realtime bus) and
 * what a browser may send on its live connection. Everything a browser sends is checked here
 * before anything acts on it.
 */

export const ROOM_TOPICS = {
  /** An event's stored state changed: lobby pages refresh, rooms re-check who may stay. */
  changed: 'room.changed',
  /** Somebody entered or left a room, or turned their microphone or camera on or off. */
  peer: 'room.peer',
  /** A WebRTC offer, answer or ICE candidate for one connection. */
  signal: 'room.signal',
  /** A recording of the room started or stopped. */
  recording: 'room.recording',
} as const;

export interface Peer {
  id: string;
  role: 'interviewer' | 'interviewee';
  name: string;
  /** Whether the room lets this connection send video. */
  video: boolean;
  /** What the person has switched on right now. */
  microphoneOn: boolean;
  cameraOn: boolean;
}

export interface ChangedBody {
  eventId: string;
}

export interface PeerBody {
  eventId: string;
  change: 'joined' | 'left' | 'media';
  peer: Peer;
}

export interface SignalBody {
  eventId: string;
  from: string;
  to: string;
  data: unknown;
}

export interface RecordingBody {
  eventId: string;
  active: boolean;
  recordingId: string;
  /** When the browser that records begins, so that everyone is told before it does. */
  startsAt: number;
}

/** What a browser may send. */
export type ClientMessage =
  | { type: 'join'; video: boolean }
  | { type: 'leave' }
  | { type: 'signal'; to: string; data: Record<string, unknown> }
  | { type: 'media'; microphoneOn: boolean; cameraOn: boolean };

const CONNECTION_ID = /^[0-9a-f-]{36}$/;

/** The browser's message, or null when it is not one of ours (it is then ignored). */
export function parseClientMessage(text: string): ClientMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(value)) return null;
  switch (value.type) {
    case 'join':
      return { type: 'join', video: value.video === true };
    case 'leave':
      return { type: 'leave' };
    case 'signal':
      return typeof value.to === 'string' && CONNECTION_ID.test(value.to) && isObject(value.data)
        ? { type: 'signal', to: value.to, data: value.data }
        : null;
    case 'media':
      return {
        type: 'media',
        microphoneOn: value.microphoneOn === true,
        cameraOn: value.cameraOn === true,
      };
    default:
      return null;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
