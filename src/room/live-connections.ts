import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { IceServer, LiveConnectionLimits } from '../config.js';
import { TemporarilyUnavailable } from '../errors.js';
import type { EventChanges } from '../interviews/event-changes.js';
import {
  TransitionRefused,
  type InterviewLifecycle,
} from '../interviews/lifecycle/interview-lifecycle.js';
import { LOBBY_PATHS } from '../interviews/lobby-links.js';
import type { LobbyRole } from '../interviews/vocabulary.js';
import { RealtimeBusBusyError, type RealtimeBus, type RealtimeMessage } from '../realtime/bus.js';
import { clientAddress } from './client-address.js';
import { ConnectionLimits, isRefusal, type ConnectionPlace } from './connection-limits.js';
import { MembershipQueue, type MembershipChange, type RoomNotice } from './membership-queue.js';
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
import { RoomRecheck } from './room-recheck.js';
import {
  CONNECTION_TOUCH_INTERVAL_MS,
  type RoomParticipant,
  type RoomService,
} from './room-service.js';
import { refuseUpgrade } from './upgrade-refusal.js';

/** `/lobby/<role>/<token>/live`: the live connection of a lobby page or of the room behind it. */
const LIVE_PATH = /^\/lobby\/(interviewer|interviewee)\/([A-Za-z0-9_-]{16,128})\/live$/;
/** Largest message a browser may send: an SDP offer of a few kilobytes fits many times. */
const MAX_MESSAGE_BYTES = 64 * 1024;
/** Messages a connection may send per second (ICE candidates come in bursts). */
const MAX_MESSAGES_PER_SECOND = 100;
/**
 * Bytes of one connection's own signals still on their way over the realtime bus: sixteen of
 * the largest, hundreds of ordinary ones. Past it that connection's signals are dropped, so one
 * browser cannot take the whole process's share of the bus (REALTIME_BACKLOG_MAX_BYTES).
 */
const MAX_SIGNAL_BYTES_IN_FLIGHT = 1024 * 1024;
/** How long a connection we close may take to answer the closing handshake before it is cut. */
const CLOSE_GRACE_MS = 5_000;
/** WebSocket close codes (RFC 6455 §7.4.1). */
const CLOSE_POLICY_VIOLATION = 1008;
const CLOSE_TRY_AGAIN_LATER = 1013;
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
  /** What one connection may have waiting, and how many one event, person and address may open. */
  limits: LiveConnectionLimits;
  /** Whether X-Forwarded-For names the client (TRUST_PROXY), for the per-address cap. */
  trustProxy: boolean;
  logger: Logger;
}

interface Connection {
  id: string;
  eventId: string;
  participant: RoomParticipant;
  socket: WebSocket;
  /** Set while the connection is in the room; null while it only watches the lobby. */
  peer: Peer | null;
  /** Its joins and leaves, one at a time and in order. */
  membership: MembershipQueue;
  /** Closed (or being closed): nothing more is sent to it, and it has left or is leaving. */
  gone: boolean;
  alive: boolean;
  window: { startedAt: number; count: number };
  /** Bytes of its signals published but not yet taken by the bus. */
  signalBytesInFlight: number;
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
  private readonly limits: ConnectionLimits;
  private readonly recheck: RoomRecheck;
  private readonly stopListening: Array<() => void> = [];
  private readonly heartbeat: NodeJS.Timeout;
  private closing = false;

  constructor(private readonly deps: LiveConnectionDependencies) {
    this.limits = new ConnectionLimits(deps.limits);
    this.recheck = new RoomRecheck(
      deps.lifecycle,
      (eventId) =>
        [...(this.byEvent.get(eventId) ?? [])]
          .filter((connection) => connection.peer || connection.membership.busy)
          .map((connection) => ({
            participant: connection.participant,
            leave: (notice) => void connection.membership.request({ kind: 'leave', notice }),
          })),
      deps.logger,
    );
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
      if (error instanceof TemporarilyUnavailable) {
        // The database stayed busy through its retries: the page reconnects after a pause.
        this.deps.logger.warn({ err: error }, 'live connection refused: database busy');
        refuseUpgrade(socket, 503, 'text/plain', 'The service is busy; try again in a moment.', {
          'Retry-After': String(error.retryAfterSeconds),
        });
        return;
      }
      this.deps.logger.error({ err: error }, 'live connection could not be opened');
      refuseUpgrade(socket, 500, 'text/plain', 'The connection could not be opened.');
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
        await connection.membership.close();
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
      return refuseUpgrade(socket, 403, 'text/plain', 'Connections from other sites are refused.');
    }
    const address = clientAddress(req, this.deps.trustProxy);
    const crowded = this.limits.refusalForAddress(address);
    if (crowded) return refuseUpgrade(socket, crowded.status, 'text/plain', crowded.message);
    const access = await this.deps.lifecycle.access(role, token);
    if (!access || access.role !== role) {
      return refuseUpgrade(socket, 404, 'text/html', this.deps.notFoundPage());
    }
    const place = { eventId: access.eventId, path: `${LOBBY_PATHS[role]}/${token}` };
    const interviewerId = role === 'interviewer' ? this.deps.recallInterviewer(req, place) : null;
    const participant = this.deps.room.participantOf(access, interviewerId);
    if (!participant) {
      return refuseUpgrade(socket, 403, 'text/plain', 'Enter your email on the lobby page first.');
    }
    if (this.closing) return refuseUpgrade(socket, 503, 'text/plain', 'The service is restarting.');
    if (socket.destroyed) return;
    const taken = this.limits.take({ eventId: access.eventId, participant, address });
    if (isRefusal(taken)) return refuseUpgrade(socket, taken.status, 'text/plain', taken.message);
    // A handshake that fails never opens: its place is given back with its socket.
    let opened = false;
    socket.once('close', () => {
      if (!opened) taken.release();
    });
    this.server.handleUpgrade(req, socket, head, (ws) => {
      opened = true;
      this.open(ws, access.eventId, participant, taken);
    });
  }

  private open(
    socket: WebSocket,
    eventId: string,
    participant: RoomParticipant,
    place: ConnectionPlace,
  ): void {
    const connection: Connection = {
      id: randomUUID(),
      eventId,
      participant,
      socket,
      peer: null,
      membership: new MembershipQueue((change) => this.changeMembership(connection, change)),
      gone: false,
      alive: true,
      window: { startedAt: Date.now(), count: 0 },
      signalBytesInFlight: 0,
    };
    this.connections.set(connection.id, connection);
    let peers = this.byEvent.get(eventId);
    if (!peers) this.byEvent.set(eventId, (peers = new Set()));
    peers.add(connection);

    socket.on('pong', () => {
      connection.alive = true;
    });
    socket.on('message', (data, isBinary) => {
      if (connection.gone) return;
      if (!this.withinRate(connection)) {
        return this.cutOff(connection, CLOSE_POLICY_VIOLATION, 'Too many messages.');
      }
      if (isBinary) return;
      const text = rawText(data);
      const message = parseClientMessage(text);
      if (message) void this.handle(connection, message, Buffer.byteLength(text));
    });
    socket.on('error', () => socket.terminate());
    socket.on('close', () => {
      // Its place under the caps is given back only once the socket is really gone: one that is
      // cut off keeps it for its grace, so cut-offs cannot pile up open sockets past the caps.
      place.release();
      void this.forget(connection);
    });
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

  /** `bytes`: the message's size as it arrived, what its signal takes on the bus. */
  private async handle(
    connection: Connection,
    message: ClientMessage,
    bytes: number,
  ): Promise<void> {
    try {
      switch (message.type) {
        case 'join':
          return await connection.membership.request({ kind: 'join', video: message.video });
        case 'leave':
          return await connection.membership.request({ kind: 'leave' });
        case 'signal':
          if (!connection.peer) return;
          return this.publishSignal(connection, bytes, {
            eventId: connection.eventId,
            from: connection.id,
            to: message.to,
            data: message.data,
          });
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

  /** One change of the connection's membership (its MembershipQueue calls it, one at a time). */
  private async changeMembership(connection: Connection, change: MembershipChange): Promise<void> {
    try {
      if (change.kind === 'leave') return await this.leaveRoom(connection, change.notice);
      // Already in the room, or closed meanwhile: nothing to do.
      if (connection.peer || connection.gone) return;
      await this.enterRoom(connection, change.video);
    } catch (error) {
      if (connection.gone) {
        // The row stays until the sweeper takes it for an orphan; the room survives that.
        this.deps.logger.warn({ err: error }, 'a closed connection could not leave its room');
        return;
      }
      this.deps.logger.error({ err: error, type: change.kind }, 'live connection message failed');
      this.send(connection, {
        type: 'refused',
        message: 'Something went wrong on our side. Reload the page and try again.',
      });
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
    connection.peer = { ...connection.peer, name: nameOf(participant.role, participant.id) };
    if (connection.gone || connection.socket.readyState !== connection.socket.OPEN) {
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

  /** Takes the connection out of the room, if it is in; `notice` tells the person why. */
  private async leaveRoom(connection: Connection, notice?: RoomNotice): Promise<void> {
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
    if (notice) this.send(connection, notice);
  }

  /** The connection is closed or being closed: it leaves the room. */
  private async forget(connection: Connection): Promise<void> {
    if (connection.gone) return;
    connection.gone = true;
    this.connections.delete(connection.id);
    const peers = this.byEvent.get(connection.eventId);
    peers?.delete(connection);
    if (peers?.size === 0) this.byEvent.delete(connection.eventId);
    await connection.membership.close();
  }

  /**
   * Closes a connection the service will not keep (it stopped reading, or sends too much), and
   * treats it as gone at once: it leaves the room now, not when the browser answers the close.
   */
  private cutOff(connection: Connection, code: number, reason: string): void {
    const socket = connection.socket;
    socket.close(code, reason);
    // A browser that stopped reading never answers the close: its socket goes after a grace.
    const timer = setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    void this.forget(connection);
  }

  private onBusMessage(message: RealtimeMessage): void {
    const body = message.body;
    if (!isObject(body) || typeof body.eventId !== 'string') return;
    const here = this.byEvent.get(body.eventId);
    if (!here) return;
    switch (message.topic) {
      case ROOM_TOPICS.changed:
        for (const connection of here) this.send(connection, { type: 'changed' });
        this.recheck.soon(body.eventId);
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

  private publishPeer(connection: Connection, change: PeerBody['change']): void {
    if (!connection.peer) return;
    this.publish(ROOM_TOPICS.peer, {
      eventId: connection.eventId,
      change,
      peer: connection.peer,
    } satisfies PeerBody);
  }

  private publish(topic: string, body: object): Promise<void> {
    return this.deps.bus.publish({ topic, body }).catch((error: unknown) => {
      // A full backlog is logged by the bus, once per overload, not once per message.
      if (error instanceof RealtimeBusBusyError) return;
      this.deps.logger.error({ err: error, topic }, 'room message could not be published');
    });
  }

  /** A signal, unless this connection already has its most signal bytes on the way. */
  private publishSignal(connection: Connection, bytes: number, body: SignalBody): void {
    if (connection.signalBytesInFlight + bytes > MAX_SIGNAL_BYTES_IN_FLIGHT) return;
    connection.signalBytesInFlight += bytes;
    void this.publish(ROOM_TOPICS.signal, body).finally(() => {
      connection.signalBytesInFlight -= bytes;
    });
  }

  /**
   * Sends unless the browser has stopped reading: a connection with more than
   * LIVE_SEND_BUFFER_MAX_BYTES waiting is closed instead of being sent more (its browser
   * reconnects if it is still there), so a frozen tab cannot make the process buffer for it.
   */
  private send(connection: Connection, message: object): void {
    const socket = connection.socket;
    if (connection.gone || socket.readyState !== socket.OPEN) return;
    const text = JSON.stringify(message);
    const waiting = socket.bufferedAmount + Buffer.byteLength(text);
    if (waiting > this.deps.limits.sendBufferMaxBytes) {
      this.deps.logger.warn(
        { bufferedBytes: socket.bufferedAmount },
        'a live connection stopped reading: closed',
      );
      return this.cutOff(connection, CLOSE_TRY_AGAIN_LATER, 'Too much waiting to be sent.');
    }
    socket.send(text);
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
