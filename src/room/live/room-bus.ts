import type { Logger } from 'pino';
import {
  RealtimeBusBusyError,
  type RealtimeBus,
  type RealtimeMessage,
} from '../../realtime/bus.js';
import type { Peer, SignalData } from '../protocol/messages.js';

/**
 * What the service processes tell each other about interview rooms over the realtime bus, so
 * that participants served by different processes meet all the same. Only this module names
 * the topics; every process runs the same code, so a body is what its topic says.
 */
const TOPICS = {
  /** An event's stored state changed: pages are told, rooms re-check who may stay. */
  changed: 'room.changed',
  /** Somebody entered or left a room, or turned their microphone or camera on or off. */
  peer: 'room.peer',
  /** A WebRTC offer, answer or ICE candidate for one connection. */
  signal: 'room.signal',
  /** A recording of the room started or stopped. */
  recording: 'room.recording',
} as const;

export interface PeerNews {
  eventId: string;
  change: 'joined' | 'left' | 'media';
  peer: Peer;
}

export interface SignalNews {
  eventId: string;
  from: string;
  to: string;
  data: SignalData;
}

export interface RecordingNews {
  eventId: string;
  active: boolean;
  recordingId: string;
  /** When the browser that records begins, so that everyone is told before it does. */
  startsAt: number;
}

/** What a process does with the room news of the bus, whichever process published it. */
export interface RoomNewsHandlers {
  changed(eventId: string): void;
  peer(news: PeerNews): void;
  signal(news: SignalNews): void;
  recording(news: RecordingNews): void;
}

export class RoomBus {
  constructor(
    private readonly bus: RealtimeBus,
    private readonly logger: Logger,
  ) {}

  changed(eventId: string): Promise<void> {
    return this.publish(TOPICS.changed, { eventId });
  }

  peer(news: PeerNews): Promise<void> {
    return this.publish(TOPICS.peer, news);
  }

  signal(news: SignalNews): Promise<void> {
    return this.publish(TOPICS.signal, news);
  }

  recording(news: RecordingNews): Promise<void> {
    return this.publish(TOPICS.recording, news);
  }

  /** Hands every room message of the bus to `handlers`; returns the unsubscribe. */
  subscribe(handlers: RoomNewsHandlers): () => void {
    return this.bus.subscribe((message) => dispatch(message, handlers));
  }

  private publish(topic: string, body: { eventId: string }): Promise<void> {
    return this.bus.publish({ topic, body }).catch((error: unknown) => {
      // A full backlog is logged by the bus, once per overload, not once per message.
      if (error instanceof RealtimeBusBusyError) return;
      this.logger.error({ err: error, topic }, 'room message could not be published');
    });
  }
}

function dispatch(message: RealtimeMessage, handlers: RoomNewsHandlers): void {
  const body = message.body;
  if (typeof body !== 'object' || body === null) return;
  if (typeof (body as { eventId?: unknown }).eventId !== 'string') return;
  switch (message.topic) {
    case TOPICS.changed:
      return handlers.changed((body as { eventId: string }).eventId);
    case TOPICS.peer:
      return handlers.peer(body as PeerNews);
    case TOPICS.signal:
      return handlers.signal(body as SignalNews);
    case TOPICS.recording:
      return handlers.recording(body as RecordingNews);
  }
}
