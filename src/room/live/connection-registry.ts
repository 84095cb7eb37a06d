import type { LiveConnection } from './live-connection.js';

/** The live connections this process holds, by id and by event. */
export class ConnectionRegistry {
  private readonly byId = new Map<string, LiveConnection>();
  private readonly byEvent = new Map<string, Set<LiveConnection>>();

  add(connection: LiveConnection): void {
    this.byId.set(connection.id, connection);
    let ofEvent = this.byEvent.get(connection.eventId);
    if (!ofEvent) this.byEvent.set(connection.eventId, (ofEvent = new Set()));
    ofEvent.add(connection);
  }

  remove(connection: LiveConnection): void {
    this.byId.delete(connection.id);
    const ofEvent = this.byEvent.get(connection.eventId);
    ofEvent?.delete(connection);
    if (ofEvent?.size === 0) this.byEvent.delete(connection.eventId);
  }

  get(id: string): LiveConnection | undefined {
    return this.byId.get(id);
  }

  /** The event's connections now (a copy: callers may await while iterating). */
  ofEvent(eventId: string): LiveConnection[] {
    return [...(this.byEvent.get(eventId) ?? [])];
  }

  all(): LiveConnection[] {
    return [...this.byId.values()];
  }
}
