import type { LiveConnectionLimits } from '../config.js';
import type { RoomParticipant } from './room-service.js';

/** Who a new live connection would belong to, for the caps. */
export interface ConnectionHolder {
  eventId: string;
  participant: RoomParticipant;
  address: string;
}

/** Why a connection is refused at its upgrade: the HTTP status and what the person reads. */
export interface LimitRefusal {
  status: 429 | 503;
  message: string;
}

/** The place a connection takes; `release` gives it back (once, however often it is called). */
export interface ConnectionPlace {
  release(): void;
}

/**
 * How many live connections this process holds per event, per participant of an event and per
 * client address, and the refusal of one more past any cap (docs/realtime.md, "Bounds"). The
 * newest is refused, never the oldest closed: a connection already open may be somebody in the
 * middle of their interview, and whoever holds a copy of a link must not be able to push them
 * out.
 */
export class ConnectionLimits {
  private readonly counts = new Map<string, number>();

  constructor(private readonly limits: LiveConnectionLimits) {}

  /** Whether `address` is already at its cap: checked before the link is even looked up. */
  refusalForAddress(address: string): LimitRefusal | null {
    return this.count(addressKey(address)) >= this.limits.perAddress ? ADDRESS_FULL : null;
  }

  /** Takes a place for a new connection of `holder`, or says why there is none. */
  take(holder: ConnectionHolder): ConnectionPlace | LimitRefusal {
    const keys = [
      addressKey(holder.address),
      `event:${holder.eventId}`,
      `participant:${holder.eventId}:${holder.participant.role}:${holder.participant.id}`,
    ] as const;
    const refusal =
      this.refusalForAddress(holder.address) ??
      (this.count(keys[1]) >= this.limits.perEvent ? EVENT_FULL : null) ??
      (this.count(keys[2]) >= this.limits.perParticipant ? PARTICIPANT_FULL : null);
    if (refusal) return refusal;
    for (const key of keys) this.counts.set(key, this.count(key) + 1);
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        for (const key of keys) {
          const left = this.count(key) - 1;
          if (left > 0) this.counts.set(key, left);
          else this.counts.delete(key);
        }
      },
    };
  }

  private count(key: string): number {
    return this.counts.get(key) ?? 0;
  }
}

export function isRefusal(value: ConnectionPlace | LimitRefusal): value is LimitRefusal {
  return 'status' in value;
}

function addressKey(address: string): string {
  return `address:${address}`;
}

const ADDRESS_FULL: LimitRefusal = {
  status: 429,
  message:
    'Too many live connections from your address are open. Close some interview pages and reload this one.',
};

const EVENT_FULL: LimitRefusal = {
  status: 503,
  message: 'Too many pages of this interview event are open. Try again in a minute.',
};

const PARTICIPANT_FULL: LimitRefusal = {
  status: 429,
  message:
    'Too many pages of this interview are open for you. Close the ones you do not need and reload this one.',
};
