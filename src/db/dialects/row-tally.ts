/**
 * A count of a table's rows by group, kept by triggers in a table of its own, so that "how many
 * rows of this group" is read from a few rows instead of counted over all of them. Because
 * the database keeps it, every statement that inserts, deletes or moves rows keeps it right:
 * the services, the sweeper, foreign-key cascades and bulk SQL alike.
 *
 * The tally table has one column per group, then `slot` and `row_count`, with the primary key
 * (groups…, slot). A group's count is the sum of its rows over every slot: engines whose writers
 * run side by side spread concurrent writers over several slots so that they do not all wait on
 * one row; a slot's own count may even go negative.
 */
export interface RowTally {
  /** The table whose rows are counted. */
  source: string;
  /** The table that holds the counts (created by the migration that keeps the tally). */
  table: string;
  /** What a row is counted under, most significant first. */
  groups: readonly TallyGroup[];
}

export interface TallyGroup {
  /** The group's column in the tally table. */
  column: string;
  /** The column of the source row it comes from. */
  of: string;
  /** When set, the group is `of` divided by this width, rounded down (e.g. days of an instant). */
  per?: number;
}

/** Every tally table's count column. */
export const TALLY_COUNT_COLUMN = 'row_count';
/** Every tally table's slot column. */
export const TALLY_SLOT_COLUMN = 'slot';

/** The SQL statements that create and drop a tally's triggers on one engine. */
export interface TallyTriggers {
  create: string[];
  drop: string[];
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** Names are spliced into trigger text, so they must be plain identifiers. */
export function checkedTally(tally: RowTally): RowTally {
  const names = [tally.source, tally.table, ...tally.groups.flatMap((g) => [g.column, g.of])];
  const bad = names.find((name) => !IDENTIFIER.test(name));
  if (bad !== undefined) throw new Error(`not a plain SQL identifier: ${JSON.stringify(bad)}`);
  for (const { per } of tally.groups) {
    if (per !== undefined && !(Number.isSafeInteger(per) && per > 0)) {
      throw new Error(`a group width must be a positive integer, got ${per}`);
    }
  }
  return tally;
}

/**
 * The group's value for the row named `row` (`new`, `old`, a table alias), in SQL both engines
 * evaluate alike. Integer `/` and `%` truncate toward zero there, so the remainder is made
 * non-negative first: instants before 1970 still fall in the day they belong to.
 */
export function groupValue(group: TallyGroup, row: string): string {
  const value = `${row}.${group.of}`;
  if (group.per === undefined) return value;
  const per = group.per;
  return `((${value} - (((${value} % ${per}) + ${per}) % ${per})) / ${per})`;
}

/** The tally table's group columns, comma-separated. */
export function groupColumns(tally: RowTally): string {
  return tally.groups.map((group) => group.column).join(', ');
}
