import type { Logger } from 'pino';
import { TransitionRefused } from '../../interviews/lifecycle/interview-lifecycle.js';
import type { MembershipChange } from '../membership-queue.js';
import type { IceServerConfig, Peer, RoomNotice } from '../protocol/messages.js';
import type { RoomService } from '../room-service.js';
import type { LiveConnection } from './live-connection.js';
import type { RoomBus } from './room-bus.js';

export interface RoomMembershipSettings {
  iceServers: IceServerConfig[];
  maxVideoParticipants: number;
}

const OUR_FAULT = 'Something went wrong on our side. Reload the page and try again.';

/**
 * Who of this process's connections is in an event's room: entering (the lifecycle decides
 * whether the person may; the room keeps the connection's row) and leaving, each connection's
 * changes one at a time through its MembershipQueue, and everyone in the room told.
 */
export class RoomMembership {
  constructor(
    private readonly room: RoomService,
    private readonly bus: RoomBus,
    private readonly settings: RoomMembershipSettings,
    private readonly logger: Logger,
  ) {}

  /** One change of the connection's membership (its MembershipQueue calls it, one at a time). */
  async change(connection: LiveConnection, change: MembershipChange): Promise<void> {
    try {
      if (change.kind === 'leave') return await this.leave(connection, change.notice);
      // Already in the room, or closed meanwhile: nothing to do.
      if (connection.peer || connection.gone) return;
      await this.enter(connection, change.video);
    } catch (error) {
      if (connection.gone) {
        // The row stays until the sweeper takes it for an orphan; the room survives that.
        this.logger.warn({ err: error }, 'a closed connection could not leave its room');
        return;
      }
      this.logger.error({ err: error, type: change.kind }, 'live connection message failed');
      connection.send({ type: 'refused', message: OUR_FAULT });
    }
  }

  /** Tells everyone else in the room that the connection's microphone or camera changed. */
  mediaChanged(connection: LiveConnection, media: { microphoneOn: boolean; cameraOn: boolean }) {
    if (!connection.peer) return;
    connection.peer = { ...connection.peer, ...media };
    void this.bus.peer({ eventId: connection.eventId, change: 'media', peer: connection.peer });
  }

  private async enter(connection: LiveConnection, offersVideo: boolean): Promise<void> {
    const { eventId, participant } = connection;
    let entry;
    try {
      entry = await this.room.enter(eventId, participant, connection.id, offersVideo);
    } catch (error) {
      if (error instanceof TransitionRefused) {
        return connection.send({ type: 'refused', message: error.message });
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
      people = await this.room.people(eventId);
    } catch (error) {
      await this.leave(connection);
      throw error;
    }
    const nameOf = (role: string, id: string) =>
      people.find((person) => person.role === role && person.id === id)?.name ?? 'Guest';
    connection.peer = { ...connection.peer, name: nameOf(participant.role, participant.id) };
    if (!connection.open) {
      // The browser went away while it was entering: it leaves at once.
      await this.leave(connection);
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
    connection.send({
      type: 'room',
      you: connection.peer,
      peers: present,
      iceServers: this.settings.iceServers,
      maxVideoParticipants: this.settings.maxVideoParticipants,
      videoRefusal: entry.videoRefusal,
    });
    void this.bus.peer({ eventId, change: 'joined', peer: connection.peer });
    void this.bus.changed(eventId);
  }

  /** Takes the connection out of the room, if it is in; `notice` tells the person why. */
  private async leave(connection: LiveConnection, notice?: RoomNotice): Promise<void> {
    const peer = connection.peer;
    if (!peer) return;
    connection.peer = null;
    const { eventId } = connection;
    await this.room.leave(eventId, connection.id);
    void this.bus.peer({ eventId, change: 'left', peer });
    void this.bus.changed(eventId);
    if (notice) connection.send(notice);
  }
}
