import type { BenchDatabase } from './options.js';

/**
 * What differs between the engines in the seeding SQL: how a run of integers `n` is produced
 * (a recursive CTE on SQLite, generate_series on PostgreSQL) and how `n` becomes hexadecimal
 * text for ids and digests. Everything else is SQL both engines read the same way.
 */
export interface SeedDialect {
  /**
   * `INSERT INTO table (columns) SELECT expressions FROM <n from..to-1> [joins]`, where each
   * expression may use `n`.
   */
  insertSeries(
    table: string,
    columns: readonly string[],
    expressions: readonly string[],
    range: { from: number; to: number },
    joins?: string,
  ): string;
  /** `n` as 12 lower-case hexadecimal digits. */
  hex12(): string;
  /** Connections inserting side by side. */
  lanes: number;
  /** Session settings for a bulk load into a throwaway database (durability is not needed). */
  bulkLoadSettings: readonly string[];
  /** Statements that refresh the planner's statistics of every table. */
  analyze(tables: readonly string[]): string[];
}

const sqlite: SeedDialect = {
  insertSeries(table, columns, expressions, { from, to }, joins = '') {
    return (
      `WITH RECURSIVE s(n) AS (SELECT ${int(from)} UNION ALL SELECT n + 1 FROM s WHERE n < ${int(to - 1)}) ` +
      `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${expressions.join(', ')} FROM s ${joins}`
    );
  },
  hex12: () => "printf('%012x', n)",
  lanes: 1,
  bulkLoadSettings: ['PRAGMA cache_size = -262144', 'PRAGMA synchronous = OFF'],
  analyze: () => ['ANALYZE'],
};

const postgres: SeedDialect = {
  insertSeries(table, columns, expressions, { from, to }, joins = '') {
    return (
      `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${expressions.join(', ')} ` +
      `FROM generate_series(${int(from)}::bigint, ${int(to - 1)}::bigint) AS s(n) ${joins}`
    );
  },
  hex12: () => "lpad(to_hex(n), 12, '0')",
  lanes: 2,
  bulkLoadSettings: ['SET synchronous_commit = off'],
  analyze: (tables) => tables.map((table) => `ANALYZE ${table}`),
};

export function seedDialect(engine: BenchDatabase): SeedDialect {
  return engine === 'sqlite' ? sqlite : postgres;
}

/** A string literal; the harness only ever quotes values it generated itself. */
export function text(value: string): string {
  if (value.includes('\0')) throw new Error('a NUL character cannot be seeded');
  return `'${value.replaceAll("'", "''")}'`;
}

/** An integer literal. */
export function int(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`not a safe integer: ${value}`);
  return String(value);
}

/** `CASE <subject> WHEN 0 THEN a WHEN 1 THEN b ... END` over a list of SQL expressions. */
export function pick(subject: string, choices: readonly string[]): string {
  const branches = choices.map((choice, index) => `WHEN ${index} THEN ${choice}`).join(' ');
  return `CASE ${subject} ${branches} END`;
}
