/**
 * Tells whoever listens (the live lobby pages and interview rooms of src/room) that an event's
 * stored state changed, after the change committed. In-process only: src/room carries it to the
 * other processes.
 */
export class EventChanges {
  private readonly listeners = new Set<(eventId: string) => void>();

  /** Returns the function that stops listening. */
  onChange(listener: (eventId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(eventId: string): void {
    for (const listener of this.listeners) {
      try {
        listener(eventId);
      } catch {
        // A listener's failure is its own; the change is committed whatever it does.
      }
    }
  }
}
