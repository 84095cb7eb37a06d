import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RawData } from 'ws';
import type { EventChanges } from '../../interviews/event-changes.js';
import type { RealtimeBus } from '../../realtime/bus.js';
import { readPageMessage } from '../protocol/page-messages.js';
import type { PageMessage } from '../protocol/messages.js';
import { CONNECTION_TOUCH_INTERVAL_MS } from '../room-service.js';
import { RoomAdmissions } from './admissions.js';
import { ConnectionRegistry } from './connection-registry.js';
import { CLOSE_CODES, LiveConnection } from './live-connection.js';
import { RoomBus, type PeerNews, type RecordingNews } from './room-bus.js';
import { RoomMembership, type RoomMembershipSettings } from './room-membership.js';
import { SignalRelay } from './signal-relay.js';
import { StateUpdates } from './state-updates.js';
import {
  UpgradeAcceptor,
  type AcceptedConnection,
  type UpgradeAuthority,
} from './upgrade-acceptor.js';

/** How much later than its announcement a recording begins, so that everybody is told first. */
export const RECORDING_NOTICE_MS = 3000;

export interface LiveConnectionDependencies extends UpgradeAuthority, RoomMembershipSettings {
  changes: EventChanges;
  bus: RealtimeBus;
  /** The event's recording in progress, announced to every page that opens meanwhile. */
  activeRecording(eventId: string): Promise<{ recordingId: string; startedAt: number } | null>;
}

/**
 * The live connections of the interview pages (WebSocket, `ws`), over the room protocol
 * (`../protocol`): lobby pages are told when the event changes, every page is told the event's
 * state when it connects and after each change, and rooms are signalled through them (who is
 * present, WebRTC offers, answers and ICE candidates, recording notices, Admit and Send back).
 *
 * Each process holds its own browsers' connections; everything addressed to a room goes over
 * the realtime bus, so participants served by different processes meet all the same. The parts:
 * `UpgradeAcceptor` (accepting and authorising), `RoomMembership` (entering and leaving),
 * `SignalRelay`, `StateUpdates`, `RoomAdmissions`, `RoomBus` (the realtime bus).
 */
export class LiveConnections {
  private readonly connections = new ConnectionRegistry();
  private readonly acceptor: UpgradeAcceptor;
  private readonly roomBus: RoomBus;
  private readonly membership: RoomMembership;
  private readonly signals: SignalRelay;
  private readonly states: StateUpdates;
  private readonly admissions: RoomAdmissions;
  private readonly stopListening: Array<() => void> = [];
  private readonly heartbeat: NodeJS.Timeout;

  constructor(private readonly deps: LiveConnectionDependencies) {
    this.acceptor = new UpgradeAcceptor(deps, (accepted) => this.open(accepted));
    this.roomBus = new RoomBus(deps.bus, deps.logger);
    this.membership = new RoomMembership(deps.room, this.roomBus, deps, deps.logger);
    this.signals = new SignalRelay(this.roomBus, this.connections);
    this.states = new StateUpdates(deps.lifecycle, deps.room, this.connections, deps.logger);
    this.admissions = new RoomAdmissions(deps.lifecycle, deps.logger);
    this.stopListening.push(
      this.roomBus.subscribe({
        changed: (eventId) => this.onChanged(eventId),
        peer: (news) => this.onPeer(news),
        signal: (news) => this.signals.deliver(news),
        recording: (news) => this.onRecording(news),
      }),
      deps.changes.onChange((eventId) => void this.roomBus.changed(eventId)),
    );
    this.heartbeat = setInterval(() => void this.beat(), CONNECTION_TOUCH_INTERVAL_MS);
    this.heartbeat.unref();
  }

  /** Takes the upgrade if it is for a live path (true); anything else is left to the caller. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    return this.acceptor.upgrade(req, socket, head);
  }

  /** Announces a recording that starts or stops to everyone on the event's pages. */
  recordingChanged(eventId: string, change: { recordingId: string; active: boolean }): void {
    const startsAt = Date.now() + (change.active ? RECORDING_NOTICE_MS : 0);
    void this.roomBus.recording({ eventId, ...change, startsAt });
  }

  /** Leaves every room this process holds a connection in, then closes the connections. */
  async close(): Promise<void> {
    this.acceptor.close();
    clearInterval(this.heartbeat);
    for (const stop of this.stopListening) stop();
    const open = this.connections.all();
    await Promise.allSettled(
      open.map(async (connection) => {
        await connection.membership.close();
        connection.socket.close(CLOSE_CODES.goingAway, 'The service is restarting.');
      }),
    );
    for (const connection of this.connections.all()) connection.socket.terminate();
  }

  private open({ socket, eventId, participant, place }: AcceptedConnection): void {
    const connection = new LiveConnection(socket, eventId, participant, {
      sendBufferMaxBytes: this.deps.limits.sendBufferMaxBytes,
      logger: this.deps.logger,
      changeMembership: (c, change) => this.membership.change(c, change),
      onGone: (c) => void this.forget(c),
    });
    this.connections.add(connection);
    socket.on('pong', () => {
      connection.alive = true;
    });
    socket.on('message', (data, isBinary) => this.onMessage(connection, data, isBinary));
    socket.on('error', () => socket.terminate());
    socket.on('close', () => {
      // Its place under the caps is given back only once the socket is really gone: one that is
      // cut off keeps it for its grace, so cut-offs cannot pile up open sockets past the caps.
      place.release();
      void this.forget(connection);
    });
    connection.send({ type: 'hello', role: participant.role });
    // Registered before the state is read: whatever changes from now on is told again.
    this.states.opened(connection);
    void this.tellActiveRecording(connection);
  }

  private onMessage(connection: LiveConnection, data: RawData, isBinary: boolean): void {
    if (connection.gone) return;
    if (!connection.withinRate()) {
      return connection.cutOff(CLOSE_CODES.policyViolation, 'Too many messages.');
    }
    if (isBinary) {
      return connection.send({ type: 'invalid', message: 'The room takes text messages only.' });
    }
    const text = rawText(data);
    const read = readPageMessage(text);
    if (!read.ok) return connection.send({ type: 'invalid', message: read.problem });
    void this.handle(connection, read.message, Buffer.byteLength(text));
  }

  /** `bytes`: the message's size as it arrived, what its signal takes on the bus. */
  private async handle(connection: LiveConnection, message: PageMessage, bytes: number) {
    switch (message.type) {
      case 'join':
        return connection.membership.request({ kind: 'join', video: message.video });
      case 'leave':
        return connection.membership.request({ kind: 'leave' });
      case 'signal':
        return this.signals.send(connection, message.to, message.data, bytes);
      case 'media':
        return this.membership.mediaChanged(connection, {
          microphoneOn: message.microphoneOn,
          cameraOn: message.cameraOn,
        });
      case 'admit':
      case 'send-back':
        return this.admissions.ask(connection, message.type);
    }
  }

  /** Somebody who arrives while the room is recorded sees so before they join. */
  private async tellActiveRecording(connection: LiveConnection): Promise<void> {
    try {
      const active = await this.deps.activeRecording(connection.eventId);
      if (!active) return;
      connection.send({
        type: 'recording',
        active: true,
        recordingId: active.recordingId,
        startsAt: active.startedAt + RECORDING_NOTICE_MS,
      });
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'the recording in progress could not be announced');
    }
  }

  private onChanged(eventId: string): void {
    const here = this.connections.ofEvent(eventId);
    if (!here.length) return;
    for (const connection of here) connection.send({ type: 'changed' });
    this.states.changed(eventId);
  }

  private onPeer({ eventId, change, peer }: PeerNews): void {
    for (const connection of this.connections.ofEvent(eventId)) {
      if (connection.peer && connection.id !== peer.id) {
        connection.send({ type: `peer-${change}`, peer });
      }
    }
  }

  private onRecording({ eventId, active, recordingId, startsAt }: RecordingNews): void {
    for (const connection of this.connections.ofEvent(eventId)) {
      connection.send({ type: 'recording', active, recordingId, startsAt });
    }
  }

  /** The connection is closed or being closed: it leaves the room. */
  private async forget(connection: LiveConnection): Promise<void> {
    if (connection.gone) return;
    connection.gone = true;
    this.connections.remove(connection);
    await connection.membership.close();
  }

  /** Pings every browser (one that missed the last ping is gone) and keeps room rows alive. */
  private async beat(): Promise<void> {
    const inRoom: string[] = [];
    for (const connection of this.connections.all()) {
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

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}
