import { ValidationError } from '../errors.js';

/** Items on a page of a list that pages with `first` (1 to 100), when `first` is left out. */
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
