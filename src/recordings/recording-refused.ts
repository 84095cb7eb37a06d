import { DomainError } from '../errors.js';

/** Why a recording request was refused; each interface maps it to its own status. */
export type RefusalKind = 'forbidden' | 'not-found' | 'conflict' | 'too-large' | 'bad-input';

/** A refused recording request; `message` is written for the person whose browser sent it. */
export class RecordingRefused extends DomainError {
  constructor(
    readonly kind: RefusalKind,
    message: string,
    /** Facts the client can act on: the chunk it should send next, the recording in the way. */
    readonly details: { expectedSeq?: number; activeRecordingId?: string } = {},
    /** Set when the same request may succeed later: how long to wait first (Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}
