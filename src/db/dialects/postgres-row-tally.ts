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
 * How many rows each group's count is spread over. Transactions that change one group's count
 * lock the row they add to until they commit; with the slot chosen by the connection, writers
 * on different connections (pooled connections have consecutive process ids) mostly add to
 * different rows and do not wait for each other. Readers sum at most this many rows per group.
 */
const SLOTS = 8;

/**
 * PostgreSQL keeps a tally with statement triggers over transition tables: one upsert per
 * statement whatever the number of rows it touched, so bulk inserts stay cheap. Each upsert adds
 * its groups in key order, so two transactions never take the same two tally rows in opposite
 * orders (no deadlock). Updates that move no row to another group (a status change) write
 * nothing: their deltas cancel out before the upsert.
 */
export function postgresTallyTriggers(given: RowTally): TallyTriggers {
  const tally = checkedTally(given);
  const { source, table } = tally;
  const keep = `${table}_keep`;
  const added = changes(tally, 'new_rows', 1);
  const removed = changes(tally, 'old_rows', -1);
  return {
    create: [
      `CREATE FUNCTION ${keep}() RETURNS trigger LANGUAGE plpgsql AS $body$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          ${apply(tally, added)};
        ELSIF TG_OP = 'DELETE' THEN
          ${apply(tally, removed)};
        ELSE
          ${apply(tally, `${added} UNION ALL ${removed}`)};
        END IF;
        RETURN NULL;
      END
      $body$`,
      `CREATE TRIGGER ${table}_on_insert AFTER INSERT ON ${source}
        REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION ${keep}()`,
      `CREATE TRIGGER ${table}_on_delete AFTER DELETE ON ${source}
        REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION ${keep}()`,
      `CREATE TRIGGER ${table}_on_update AFTER UPDATE ON ${source}
        REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
        FOR EACH STATEMENT EXECUTE FUNCTION ${keep}()`,
    ],
    drop: [
      ...['insert', 'delete', 'update'].map(
        (event) => `DROP TRIGGER ${table}_on_${event} ON ${source}`,
      ),
      `DROP FUNCTION ${keep}()`,
    ],
  };
}

function changes(tally: RowTally, rows: string, delta: 1 | -1): string {
  const values = tally.groups.map((group) => `${groupValue(group, 'r')} AS ${group.column}`);
  return `SELECT ${values.join(', ')}, ${delta} AS delta FROM ${rows} r`;
}

function apply(tally: RowTally, deltas: string): string {
  const columns = groupColumns(tally);
  return `INSERT INTO ${tally.table} (${columns}, ${SLOT}, ${COUNT})
    SELECT ${columns}, pg_backend_pid() % ${SLOTS}, sum(delta) FROM (${deltas}) deltas
    GROUP BY ${columns} HAVING sum(delta) <> 0 ORDER BY ${columns}
    ON CONFLICT (${columns}, ${SLOT})
    DO UPDATE SET ${COUNT} = ${tally.table}.${COUNT} + excluded.${COUNT}`;
}
