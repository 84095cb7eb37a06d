import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { WebSocketServer, type WebSocket } from 'ws';
import type { LiveConnectionLimits } from '../../config.js';
import { TemporarilyUnavailable } from '../../errors.js';
import type { InterviewLifecycle } from '../../interviews/lifecycle/interview-lifecycle.js';
import { LOBBY_PATHS } from '../../interviews/lobby-links.js';
import type { LobbyRole } from '../../interviews/vocabulary.js';
import { clientAddress } from '../client-address.js';
import { ConnectionLimits, isRefusal, type ConnectionPlace } from '../connection-limits.js';
import type { RoomParticipant, RoomService } from '../room-service.js';
import { refuseUpgrade } from '../upgrade-refusal.js';

/** `/lobby/<role>/<token>/live`: the live connection of a lobby page or of the room behind it. */
const LIVE_PATH = /^\/lobby\/(interviewer|interviewee)\/([A-Za-z0-9_-]{16,128})\/live$/;
/** Largest message a browser may send: an SDP offer of a few kilobytes fits many times. */
export const MAX_MESSAGE_BYTES = 64 * 1024;

export interface UpgradeAuthority {
  lifecycle: InterviewLifecycle;
  room: RoomService;
  /** Which invited interviewer a request's cookie names, for the interviewer lobby at `path`. */
  recallInterviewer(req: IncomingMessage, place: { eventId: string; path: string }): string | null;
  /** The body of the lobby pages' one not-found page, so that a refused connection looks alike. */
  notFoundPage(): string;
  publicUrl: string;
  /** How many connections one event, person and address may open. */
  limits: LiveConnectionLimits;
  /** Whether X-Forwarded-For names the client (TRUST_PROXY), for the per-address cap. */
  trustProxy: boolean;
  logger: Logger;
}

/** An upgraded connection, whose it is, and its place under the caps (released once it closes). */
export interface AcceptedConnection {
  socket: WebSocket;
  eventId: string;
  participant: RoomParticipant;
  place: ConnectionPlace;
}

/**
 * Accepts the WebSocket upgrades of the live paths, authorised exactly like the page they belong
 * to: the capability token in the path, plus the interviewer identity cookie; from this site
 * only, and within the caps per address, event and person. A refusal is a plain HTTP answer
 * that says why.
 */
export class UpgradeAcceptor {
  private readonly server = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    perMessageDeflate: false,
  });
  private readonly limits: ConnectionLimits;
  private closing = false;

  constructor(
    private readonly authority: UpgradeAuthority,
    private readonly onOpen: (accepted: AcceptedConnection) => void,
  ) {
    this.limits = new ConnectionLimits(authority.limits);
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
        this.authority.logger.warn({ err: error }, 'live connection refused: database busy');
        refuseUpgrade(socket, 503, 'text/plain', 'The service is busy; try again in a moment.', {
          'Retry-After': String(error.retryAfterSeconds),
        });
        return;
      }
      this.authority.logger.error({ err: error }, 'live connection could not be opened');
      refuseUpgrade(socket, 500, 'text/plain', 'The connection could not be opened.');
    });
    return true;
  }

  /** Refuses every later upgrade: the service is shutting down. */
  close(): void {
    this.closing = true;
    this.server.close();
  }

  private async accept(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    role: LobbyRole,
    token: string,
  ): Promise<void> {
    const { authority } = this;
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== new URL(authority.publicUrl).origin) {
      return refuseUpgrade(socket, 403, 'text/plain', 'Connections from other sites are refused.');
    }
    const address = clientAddress(req, authority.trustProxy);
    const crowded = this.limits.refusalForAddress(address);
    if (crowded) return refuseUpgrade(socket, crowded.status, 'text/plain', crowded.message);
    const access = await authority.lifecycle.access(role, token);
    if (!access || access.role !== role) {
      return refuseUpgrade(socket, 404, 'text/html', authority.notFoundPage());
    }
    const place = { eventId: access.eventId, path: `${LOBBY_PATHS[role]}/${token}` };
    const interviewerId = role === 'interviewer' ? authority.recallInterviewer(req, place) : null;
    const participant = authority.room.participantOf(access, interviewerId);
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
      this.onOpen({ socket: ws, eventId: access.eventId, participant, place: taken });
    });
  }
}
