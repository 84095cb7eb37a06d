import { DIALECTS } from './dialects/index.js';

/**
 * True when a database error is a violated UNIQUE constraint, whichever engine reported it (each
 * dialect recognises its own errors; see src/db/dialects/).
 */
export function isUniqueViolation(error: unknown): boolean {
  return DIALECTS.some((dialect) => dialect.isUniqueViolation(error));
}

/**
 * True when a database error is a violated FOREIGN KEY constraint, whichever engine reported it:
 * a row refers to one that does not exist (any more, when another request just deleted it).
 */
export function isForeignKeyViolation(error: unknown): boolean {
  return DIALECTS.some((dialect) => dialect.isForeignKeyViolation(error));
}
