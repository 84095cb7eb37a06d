import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { ValidationError } from '../errors.js';
import { describeFilters, type EventFilters } from './event-filter.js';
import { describeOrder, type EventOrder, type EventPosition } from './event-sort.js';

/** The query a cursor belongs to: a cursor is only accepted back by the query that issued it. */
export interface CursorScope {
  employerId: string;
  order: EventOrder;
  filters: EventFilters;
}

const FORMAT = 'event-cursor/v1';
/** 128 bits of HMAC-SHA256: far beyond guessing, and it keeps cursors short. */
const TAG_BYTES = 16;
/** Real cursors are about 120 characters; anything much longer is not worth decoding. */
const MAX_CURSOR_LENGTH = 400;
const MAX_ID_LENGTH = 36;

/**
 * Opaque, tamper-proof pagination cursors of `findVirtualInterviewEvents`.
 *
 * Form: `<payload>.<tag>`, both base64url. The payload is the JSON array of the event's position
 * (its value for every key of the order, ending with its id). The tag is an HMAC-SHA256, keyed
 * by a sub-key that HKDF derives from the service secret for this purpose alone, over the payload
 * text, the employer id and a canonical description of the sort and the filters. So a cursor
 * that was forged, altered in any character, issued to another employer or issued for another
 * sort or other filters is refused; nothing in it is trusted before the tag checks out.
 */
export class EventCursors {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'hiring-partner-api', 'event-cursors', 32));
  }

  encode(position: EventPosition, scope: CursorScope): string {
    const payload = Buffer.from(JSON.stringify(position), 'utf8').toString('base64url');
    return `${payload}.${this.tag(payload, scope)}`;
  }

  /** The position a cursor names; a `ValidationError` on `after` for anything else. */
  decode(cursor: string, scope: CursorScope): EventPosition {
    const parts = cursor.length <= MAX_CURSOR_LENGTH ? cursor.split('.') : [];
    const [payload, tag] = parts;
    if (parts.length !== 2 || !payload || !tag || !sameText(tag, this.tag(payload, scope))) {
      throw notACursor();
    }
    const position = parsePosition(payload, scope.order);
    if (!position) throw notACursor();
    return position;
  }

  // The tag covers the payload as text (not its decoded bytes), so that no second spelling of
  // the same bytes, such as different unused bits in the last base64url character, passes.
  private tag(payload: string, scope: CursorScope): string {
    const signed = JSON.stringify([
      FORMAT,
      scope.employerId,
      describeOrder(scope.order),
      describeFilters(scope.filters),
      payload,
    ]);
    return createHmac('sha256', this.key)
      .update(signed, 'utf8')
      .digest()
      .subarray(0, TAG_BYTES)
      .toString('base64url');
  }
}

function notACursor(): ValidationError {
  return new ValidationError(
    'after is not a cursor from this query: pass the endCursor of a previous page of the same ' +
      'findVirtualInterviewEvents request, with the same input and the same access token employer',
    'after',
  );
}

function sameText(presented: string, expected: string): boolean {
  const a = Buffer.from(presented, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Checks the shape even behind a valid tag: a leaked secret must still not reach SQL as junk. */
function parsePosition(payload: string, order: EventOrder): EventPosition | undefined {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(values) || values.length !== order.length) return undefined;
  const fits = order.every(({ column }, index) => {
    const value: unknown = values[index];
    return column === 'id'
      ? typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_LENGTH
      : Number.isSafeInteger(value);
  });
  return fits ? (values as EventPosition) : undefined;
}
