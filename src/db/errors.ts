/** True when a database error is a violated UNIQUE constraint, on SQLite or PostgreSQL. */
export function isUniqueViolation(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code === '23505') return true;
  return code === 'SQLITE_CONSTRAINT' && typeof message === 'string' && message.includes('UNIQUE');
}

/**
 * True when a database error is a violated FOREIGN KEY constraint, on SQLite or PostgreSQL: a
 * row refers to one that does not exist (any more, when another request just deleted it).
 */
export function isForeignKeyViolation(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code === '23503') return true;
  return (
    code === 'SQLITE_CONSTRAINT' && typeof message === 'string' && message.includes('FOREIGN KEY')
  );
}
