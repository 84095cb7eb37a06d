import { ValidationError } from '../errors.js';

/** Where a disposition sits in the order of a page: its status change, then its id. */
export interface DispositionPosition {
  statusChangedAt: number;
  id: number;
}

/** A disposition's cursor: its position, opaque to clients. */
export function dispositionCursor(position: DispositionPosition): string {
  return Buffer.from(`disposition:${position.statusChangedAt}.${position.id}`).toString(
    'base64url',
  );
}

/** The position a cursor names; a cursor this list never gave is refused. */
export function cursorPosition(cursor: string | null | undefined): DispositionPosition | null {
  if (cursor === null || cursor === undefined) return null;
  const text = Buffer.from(cursor, 'base64url').toString();
  const match = /^disposition:(-?\d{1,16})\.([1-9]\d{0,15})$/.exec(text);
  if (!match) throw new ValidationError('after is not a cursor of this list', 'after');
  return { statusChangedAt: Number(match[1]), id: Number(match[2]) };
}
