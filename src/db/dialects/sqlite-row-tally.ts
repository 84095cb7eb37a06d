import {
  checkedTally,
  groupColumns,
  groupValue,
  TALLY_COUNT_COLUMN as COUNT,
  TALLY_SLOT_COLUMN as SLOT,
  type RowTally,
  type TallyTriggers,
} from './row-tally.js';

/**
 * SQLite keeps a tally with row triggers. Its writers take turns (one write lock for the whole
 * database), so one slot per group is enough: nobody ever waits on a tally row.
 */
export function sqliteTallyTriggers(given: RowTally): TallyTriggers {
  const tally = checkedTally(given);
  const { source, table } = tally;
  const changed = tally.groups.map(({ of }) => `old.${of} IS NOT new.${of}`).join(' OR ');
  const watched = [...new Set(tally.groups.map(({ of }) => of))].join(', ');
  return {
    create: [
      `CREATE TRIGGER ${table}_on_insert AFTER INSERT ON ${source} BEGIN
        ${count(tally, 'new', 1)};
      END`,
      `CREATE TRIGGER ${table}_on_delete AFTER DELETE ON ${source} BEGIN
        ${count(tally, 'old', -1)};
      END`,
      `CREATE TRIGGER ${table}_on_update AFTER UPDATE OF ${watched} ON ${source}
      WHEN ${changed} BEGIN
        ${count(tally, 'old', -1)};
        ${count(tally, 'new', 1)};
      END`,
    ],
    drop: ['insert', 'delete', 'update'].map((event) => `DROP TRIGGER ${table}_on_${event}`),
  };
}

function count(tally: RowTally, row: 'new' | 'old', delta: 1 | -1): string {
  const columns = groupColumns(tally);
  const values = tally.groups.map((group) => groupValue(group, row)).join(', ');
  return `INSERT INTO ${tally.table} (${columns}, ${SLOT}, ${COUNT})
    VALUES (${values}, 0, ${delta})
    ON CONFLICT (${columns}, ${SLOT}) DO UPDATE SET ${COUNT} = ${COUNT} + excluded.${COUNT}`;
}
