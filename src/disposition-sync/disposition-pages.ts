import { ValidationError } from '../errors.js';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** `first` as given, 20 when left out; anything but 1 to 100 is refused. */
export function pageSize(first: number | null | undefined): number {
  if (first === null || first === undefined) return DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(first) || first < 1 || first > MAX_PAGE_SIZE) {
    throw new ValidationError(`first must be a whole number from 1 to ${MAX_PAGE_SIZE}`, 'first');
  }
  return first;
}

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
