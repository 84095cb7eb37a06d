/** True when a database error is a violated UNIQUE constraint, on SQLite or PostgreSQL. */
export function isUniqueViolation(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code === '23505') return true;
  return code === 'SQLITE_CONSTRAINT' && typeof message === 'string' && message.includes('UNIQUE');
}
