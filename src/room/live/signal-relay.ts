import type { SignalData } from '../protocol/messages.js';
import type { ConnectionRegistry } from './connection-registry.js';
import type { LiveConnection } from './live-connection.js';
import type { RoomBus, SignalNews } from './room-bus.js';

/**
 * Bytes of one connection's own signals still on their way over the realtime bus: sixteen of
 * the largest, hundreds of ordinary ones. Past it that connection's signals are dropped, so one
 * browser cannot take the whole process's share of the bus (REALTIME_BACKLOG_MAX_BYTES).
 */
const MAX_SIGNAL_BYTES_IN_FLIGHT = 1024 * 1024;

/**
 * WebRTC offers, answers and ICE candidates from one browser in a room to another, through the
 * bus whichever processes hold the two; never into another event's room, never from or to a
 * connection that is not in the room.
 */
export class SignalRelay {
  constructor(
    private readonly bus: RoomBus,
    private readonly connections: ConnectionRegistry,
  ) {}

  /** `bytes`: the message's size as it arrived, what its signal takes on the bus. */
  send(from: LiveConnection, to: string, data: SignalData, bytes: number): void {
    if (!from.peer) return;
    if (from.signalBytesInFlight + bytes > MAX_SIGNAL_BYTES_IN_FLIGHT) return;
    from.signalBytesInFlight += bytes;
    void this.bus.signal({ eventId: from.eventId, from: from.id, to, data }).finally(() => {
      from.signalBytesInFlight -= bytes;
    });
  }

  /** A signal from the bus, to its addressee if this process holds it. */
  deliver({ eventId, from, to, data }: SignalNews): void {
    const target = this.connections.get(to);
    // Only to a connection in the same event's room: nobody reaches into another room.
    if (target?.peer && target.eventId === eventId) target.send({ type: 'signal', from, data });
  }
}
