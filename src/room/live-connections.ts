import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { IceServer } from '../config.js';
import type { EventChanges } from '../interviews/event-changes.js';
import {
  TransitionRefused,
  type InterviewLifecycle,
} from '../interviews/lifecycle/interview-lifecycle.js';
import { LOBBY_PATHS } from '../interviews/lobby-links.js';
import type { LobbyRole } from '../interviews/vocabulary.js';
import type { RealtimeBus, RealtimeMessage } from '../realtime/bus.js';
import {
  ROOM_TOPICS,
  isObject,
  parseClientMessage,
  type ChangedBody,
  type ClientMessage,
  type Peer,
  type PeerBody,
  type RecordingBody,
  type SignalBody,
} from './room-messages.js';
import {
  CONNECTION_TOUCH_INTERVAL_MS,
  type RoomParticipant,
  type RoomService,
} from './room-service.js';

/** `/lobby/<role>/<token>/live`: the live connection of a lobby page or of the room behind it. */
const LIVE_PATH = /^\/lobby\/(interviewer|interviewee)\/([A-Za-z0-9_-]{16,128})\/live$/;
/** Largest message a browser may send: an SDP offer of a few kilobytes fits many times. */
const MAX_MESSAGE_BYTES = 64 * 1024;
/** Messages a connection may send per second (ICE candidates come in bursts). */
const MAX_MESSAGES_PER_SECOND = 100;
/** Live connections one process holds for one event: its pages, in every tab of everyone invited. */
const MAX_CONNECTIONS_PER_EVENT = 100;
/** How much later than its announcement a recording begins, so that everybody is told first. */
export const RECORDING_NOTICE_MS = 3000;

export interface LiveConnectionDependencies {
  lifecycle: InterviewLifecycle;
  room: RoomService;
  changes: EventChanges;
  bus: RealtimeBus;
  /** Which invited interviewer a request's cookie names, for the interviewer lobby at `path`. */
  recallInterviewer(req: IncomingMessage, place: { eventId: string; path: string }): string | null;
  /** The event's recording in progress, announced to every page that opens meanwhile. */
  activeRecording(eventId: string): Promise<{ recordingId: string; startedAt: number } | null>;
  /** The body of the lobby pages' one not-found page, so that a refused connection looks alike. */
  notFoundPage(): string;
  publicUrl: string;
  iceServers: IceServer[];
  maxVideoParticipants: number;
  logger: Logger;
}

interface Connection {
  id: string;
  eventId: string;
  participant: RoomParticipant;
  socket: WebSocket;
  /** Set while the connection is in the room; null while it only watches the lobby. */
  peer: Peer | null;
  /** True while its entry into the room is being decided; a second `join` meanwhile is ignored. */
  entering: boolean;
  alive: boolean;
  window: { startedAt: number; count: number };
}

/**
 * The live connections of the interview pages (WebSocket, `ws`): lobby pages are told when the
 * event changes, and rooms are signalled through them (who is present, WebRTC offers, answers
 * and ICE candidates, recording notices). A connection is authorised exactly like the page it
 * belongs to: the capability token in its path, plus the interviewer identity cookie.
 *
 * Each process holds its own browsers' connections; everything addressed to a room goes over
 * the realtime bus, so participants served by different processes meet all the same.
 */
export class LiveConnections {
  private readonly server = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    perMessageDeflate: false,
  });
  private readonly connections = new Map<string, Connection>();
  private readonly byEvent = new Map<string, Set<Connection>>();
  private readonly stopListening: Array<() => void> = [];
  private readonly heartbeat: NodeJS.Timeout;
  private closing = false;

  constructor(private readonly deps: LiveConnectionDependencies) {
    this.stopListening.push(
      deps.bus.subscribe((message) => this.onBusMessage(message)),
      deps.changes.onChange((eventId) => this.publish(ROOM_TOPICS.changed, { eventId })),
    );
    this.heartbeat = setInterval(() => void this.beat(), CONNECTION_TOUCH_INTERVAL_MS);
    this.heartbeat.unref();
  }

  /** Takes the upgrade if it is for a live path (true); anything else is left to the caller. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const match = LIVE_PATH.exec(path);
    if (!match) return false;
    const [, role = '', token = ''] = match;
    this.accept(req, socket, head, role as LobbyRole, token).catch((error: unknown) => {
      this.deps.logger.error({ err: error }, 'live connection could not be opened');
      refuse(socket, 500, 'text/plain', 'The connection could not be opened.');
    });
    return true;
  }

  /** Announces a recording that starts or stops to everyone on the event's pages. */
  recordingChanged(eventId: string, change: { recordingId: string; active: boolean }): void {
    const body: RecordingBody = {
      eventId,
      ...change,
      startsAt: Date.now() + (change.active ? RECORDING_NOTICE_MS : 0),
    };
    this.publish(ROOM_TOPICS.recording, body);
  }

  /** Leaves every room this process holds a connection in, then closes the connections. */
  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.heartbeat);
    for (const stop of this.stopListening) stop();
    await Promise.allSettled(
      [...this.connections.values()].map(async (connection) => {
        if (connection.peer) await this.leaveRoom(connection);
        connection.socket.close(1001, 'The service is restarting.');
      }),
    );
    for (const connection of this.connections.values()) connection.socket.terminate();
    this.server.close();
  }

  private async accept(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    role: LobbyRole,
    token: string,
  ): Promise<void> {
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== new URL(this.deps.publicUrl).origin) {
      return refuse(socket, 403, 'text/plain', 'Connections from other sites are refused.');
    }
    const access = await this.deps.lifecycle.access(role, token);
    if (!access || access.role !== role) {
      return refuse(socket, 404, 'text/html', this.deps.notFoundPage());
    }
    const place = { eventId: access.eventId, path: `${LOBBY_PATHS[role]}/${token}` };
    const interviewerId = role === 'interviewer' ? this.deps.recallInterviewer(req, place) : null;
    const participant = this.deps.room.participantOf(access, interviewerId);
    if (!participant) {
      return refuse(socket, 403, 'text/plain', 'Enter your email on the lobby page first.');
    }
    if (this.closing) return refuse(socket, 503, 'text/plain', 'The service is restarting.');
    if ((this.byEvent.get(access.eventId)?.size ?? 0) >= MAX_CONNECTIONS_PER_EVENT) {
      return refuse(socket, 503, 'text/plain', 'Too many pages of this event are open.');
    }
    this.server.handleUpgrade(req, socket, head, (ws) =>
      this.open(ws, access.eventId, participant),
    );
  }

  private open(socket: WebSocket, eventId: string, participant: RoomParticipant): void {
    const connection: Connection = {
      id: randomUUID(),
      eventId,
      participant,
      socket,
      peer: null,
      entering: false,
      alive: true,
      window: { startedAt: Date.now(), count: 0 },
    };
    this.connections.set(connection.id, connection);
    let peers = this.byEvent.get(eventId);
    if (!peers) this.byEvent.set(eventId, (peers = new Set()));
    peers.add(connection);

    socket.on('pong', () => {
      connection.alive = true;
    });
    socket.on('message', (data, isBinary) => {
      if (!this.withinRate(connection)) return socket.close(1008, 'Too many messages.');
      const message = isBinary ? null : parseClientMessage(rawText(data));
      if (message) void this.handle(connection, message);
    });
    socket.on('error', () => socket.terminate());
    socket.on('close', () => void this.forget(connection));
    this.send(connection, { type: 'hello', role: participant.role });
    void this.tellActiveRecording(connection);
  }

  /** Somebody who arrives while the room is recorded sees so before they join. */
  private async tellActiveRecording(connection: Connection): Promise<void> {
    try {
      const active = await this.deps.activeRecording(connection.eventId);
      if (!active) return;
      this.send(connection, {
        type: 'recording',
        active: true,
        recordingId: active.recordingId,
        startsAt: active.startedAt + RECORDING_NOTICE_MS,
      });
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'the recording in progress could not be announced');
    }
  }

  private async handle(connection: Connection, message: ClientMessage): Promise<void> {
    try {
      switch (message.type) {
        case 'join':
          return await this.joinRoom(connection, message.video);
        case 'leave':
          return await this.leaveRoom(connection);
        case 'signal':
          if (!connection.peer) return;
          return this.publish(ROOM_TOPICS.signal, {
            eventId: connection.eventId,
            from: connection.id,
            to: message.to,
            data: message.data,
          } satisfies SignalBody);
        case 'media':
          if (!connection.peer) return;
          connection.peer = { ...connection.peer, ...pick(message) };
          return this.publishPeer(connection, 'media');
      }
    } catch (error) {
      this.deps.logger.error({ err: error, type: message.type }, 'live connection message failed');
      this.send(connection, {
        type: 'refused',
        message: 'Something went wrong on our side. Reload the page and try again.',
      });
    }
  }

  private async joinRoom(connection: Connection, offersVideo: boolean): Promise<void> {
    if (connection.peer || connection.entering) return;
    connection.entering = true;
    try {
      await this.enterRoom(connection, offersVideo);
    } finally {
      connection.entering = false;
    }
  }

  private async enterRoom(connection: Connection, offersVideo: boolean): Promise<void> {
    const { eventId, participant } = connection;
    let entry;
    try {
      entry = await this.deps.room.enter(eventId, participant, connection.id, offersVideo);
    } catch (error) {
      if (error instanceof TransitionRefused) {
        return this.send(connection, { type: 'refused', message: error.message });
      }
      throw error;
    }
    // In the room from here on: whatever fails below, the connection leaves it again.
    connection.peer = {
      id: connection.id,
      role: participant.role,
      name: 'Guest',
      video: entry.video,
      microphoneOn: true,
      cameraOn: entry.video,
    };
    let people;
    try {
      people = await this.deps.room.people(eventId);
    } catch (error) {
      await this.leaveRoom(connection);
      throw error;
    }
    const nameOf = (role: string, id: string) =>
      people.find((person) => person.role === role && person.id === id)?.name ?? 'Guest';
    connection.peer.name = nameOf(participant.role, participant.id);
    if (connection.socket.readyState !== connection.socket.OPEN) {
      // The browser went away while it was entering: it leaves at once.
      await this.leaveRoom(connection);
      return;
    }
    const present: Peer[] = entry.present.map((row) => ({
      id: row.id,
      role: row.role,
      name: nameOf(row.role, row.participant_id),
      video: row.video,
      microphoneOn: true,
      cameraOn: row.video,
    }));
    this.send(connection, {
      type: 'room',
      you: connection.peer,
      peers: present,
      iceServers: this.deps.iceServers,
      maxVideoParticipants: this.deps.maxVideoParticipants,
      videoRefusal: entry.videoRefusal,
    });
    this.publishPeer(connection, 'joined');
    this.publish(ROOM_TOPICS.changed, { eventId } satisfies ChangedBody);
  }

  private async leaveRoom(connection: Connection): Promise<void> {
    const peer = connection.peer;
    if (!peer) return;
    connection.peer = null;
    await this.deps.room.leave(connection.eventId, connection.id);
    this.publish(ROOM_TOPICS.peer, {
      eventId: connection.eventId,
      change: 'left',
      peer,
    } satisfies PeerBody);
    this.publish(ROOM_TOPICS.changed, { eventId: connection.eventId } satisfies ChangedBody);
  }

  private async forget(connection: Connection): Promise<void> {
    this.connections.delete(connection.id);
    const peers = this.byEvent.get(connection.eventId);
    peers?.delete(connection);
    if (peers?.size === 0) this.byEvent.delete(connection.eventId);
    try {
      await this.leaveRoom(connection);
    } catch (error) {
      // The row stays until the sweeper takes it for an orphan; the room survives that.
      this.deps.logger.warn({ err: error }, 'a closed connection could not leave its room');
    }
  }

  private onBusMessage(message: RealtimeMessage): void {
    const body = message.body;
    if (!isObject(body) || typeof body.eventId !== 'string') return;
    const here = this.byEvent.get(body.eventId);
    if (!here) return;
    switch (message.topic) {
      case ROOM_TOPICS.changed:
        for (const connection of here) this.send(connection, { type: 'changed' });
        void this.recheckRoom(body.eventId, here);
        return;
      case ROOM_TOPICS.peer: {
        const { change, peer } = body as unknown as PeerBody;
        for (const connection of here) {
          if (connection.peer && connection.id !== peer.id) {
            this.send(connection, { type: `peer-${change}`, peer });
          }
        }
        return;
      }
      case ROOM_TOPICS.signal: {
        const { from, to, data } = body as unknown as SignalBody;
        const target = this.connections.get(to);
        // Only to a connection in the same event's room: nobody reaches into another room.
        if (target?.peer && target.eventId === body.eventId) {
          this.send(target, { type: 'signal', from, data });
        }
        return;
      }
      case ROOM_TOPICS.recording: {
        const { active, recordingId, startsAt } = body as unknown as RecordingBody;
        for (const connection of here) {
          this.send(connection, { type: 'recording', active, recordingId, startsAt });
        }
        return;
      }
    }
  }

  /**
   * After a change, whoever may no longer be in the room leaves it and is told why: everyone
   * once the event is over, the interviewee once sent back or once their interview ended.
   */
  private async recheckRoom(eventId: string, here: Set<Connection>): Promise<void> {
    const inRoom = [...here].filter((connection) => connection.peer);
    if (!inRoom.length) return;
    try {
      const view = await this.deps.lifecycle.view(eventId);
      const open = view.event.status === 'SCHEDULED' || view.event.status === 'STARTED';
      for (const connection of inRoom) {
        const status = view.interviewee?.status;
        let reason: { type: string; message: string } | null = null;
        if (!open) {
          reason = { type: 'ended', message: 'This interview event is over. Thank you.' };
        } else if (connection.participant.role === 'interviewee' && status !== 'INTERVIEWING') {
          reason =
            status === 'REQUEUED'
              ? { type: 'removed', message: 'An interviewer sent you back to the lobby.' }
              : { type: 'ended', message: 'Your interview has ended. Thank you.' };
        }
        if (!reason) continue;
        await this.leaveRoom(connection);
        this.send(connection, reason);
      }
    } catch (error) {
      this.deps.logger.error({ err: error, eventId }, 'room could not be checked after a change');
    }
  }

  private publishPeer(connection: Connection, change: PeerBody['change']): void {
    if (!connection.peer) return;
    this.publish(ROOM_TOPICS.peer, {
      eventId: connection.eventId,
      change,
      peer: connection.peer,
    } satisfies PeerBody);
  }

  private publish(topic: string, body: object): void {
    this.deps.bus.publish({ topic, body }).catch((error: unknown) => {
      this.deps.logger.error({ err: error, topic }, 'room message could not be published');
    });
  }

  private send(connection: Connection, message: object): void {
    if (connection.socket.readyState === connection.socket.OPEN) {
      connection.socket.send(JSON.stringify(message));
    }
  }

  private withinRate(connection: Connection): boolean {
    const now = Date.now();
    if (now - connection.window.startedAt >= 1000) connection.window = { startedAt: now, count: 0 };
    connection.window.count += 1;
    return connection.window.count <= MAX_MESSAGES_PER_SECOND;
  }

  /** Pings every browser (one that missed the last ping is gone) and keeps room rows alive. */
  private async beat(): Promise<void> {
    const inRoom: string[] = [];
    for (const connection of this.connections.values()) {
      if (!connection.alive) {
        connection.socket.terminate();
        continue;
      }
      connection.alive = false;
      connection.socket.ping();
      if (connection.peer) inRoom.push(connection.id);
    }
    try {
      await this.deps.room.touch(inRoom);
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'room connections could not be kept alive');
    }
  }
}

function pick(message: { microphoneOn: boolean; cameraOn: boolean }) {
  return { microphoneOn: message.microphoneOn, cameraOn: message.cameraOn };
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}

/** Answers an upgrade request with a plain HTTP response and closes the socket. */
function refuse(socket: Duplex, status: number, type: string, body: string): void {
  if (socket.destroyed) return;
  const reason = { 403: 'Forbidden', 404: 'Not Found', 500: 'Internal Server Error' }[status];
  const bytes = Buffer.from(body, 'utf8');
  const head =
    `HTTP/1.1 ${status} ${reason ?? 'Service Unavailable'}\r\n` +
    `Content-Type: ${type}; charset=utf-8\r\n` +
    `Content-Length: ${bytes.length}\r\n` +
    'Cache-Control: no-store\r\nReferrer-Policy: no-referrer\r\nConnection: close\r\n\r\n';
  socket.end(Buffer.concat([Buffer.from(head, 'latin1'), bytes]));
}
