/** Statements that install, and remove, the triggers moving one change epoch. */
export interface EpochTriggers {
  create: string[];
  drop: string[];
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

function checked(names: string[]): string[] {
  for (const name of names) {
    if (!IDENTIFIER.test(name)) throw new Error(`not a plain SQL identifier: ${name}`);
  }
  return names;
}

function bump(epoch: string): string {
  return `UPDATE change_epochs SET epoch = epoch + 1 WHERE name = '${checked([epoch])[0]}'`;
}

/** SQLite: a row trigger per table and event (SQLite has no statement triggers). */
export function sqliteEpochTriggers(tables: string[], epoch: string): EpochTriggers {
  const triggers = checked(tables).flatMap((table) =>
    ['update', 'delete'].map((event) => ({
      table,
      event,
      name: `${table}_${event}_moves_${epoch}`,
    })),
  );
  return {
    create: triggers.map(
      ({ table, event, name }) =>
        `CREATE TRIGGER ${name} AFTER ${event.toUpperCase()} ON ${table} BEGIN ${bump(epoch)}; END`,
    ),
    drop: triggers.map(({ name }) => `DROP TRIGGER IF EXISTS ${name}`),
  };
}

/** PostgreSQL: one function, and a statement trigger per table (one bump per statement). */
export function postgresEpochTriggers(tables: string[], epoch: string): EpochTriggers {
  const fn = `move_${checked([epoch])[0]}_epoch`;
  return {
    create: [
      `CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN ${bump(epoch)}; RETURN NULL; END $$`,
      ...checked(tables).map(
        (table) =>
          `CREATE TRIGGER ${table}_moves_${epoch} AFTER UPDATE OR DELETE ON ${table}
          FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`,
      ),
    ],
    drop: [
      ...tables.map((table) => `DROP TRIGGER IF EXISTS ${table}_moves_${epoch} ON ${table}`),
      `DROP FUNCTION IF EXISTS ${fn}()`,
    ],
  };
}
