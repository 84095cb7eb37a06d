/**
 * SQL that builds JSON in the database, so that a row and the rows that belong to it come back in
 * one statement (an event with its interviewers, as one column holding an array of objects).
 * Expressions are SQL text; keys are constant names chosen by the caller, never input.
 */
export interface JsonSql {
  /** A JSON object with these keys, each the value of its SQL expression. */
  object(entries: ReadonlyArray<readonly [key: string, expression: string]>): string;
  /**
   * The aggregate of `element` over the rows of the enclosing `select ... from`, in `orderBy`
   * order, as a JSON array: `[]` when there are none, never null.
   */
  arrayOf(element: string, orderBy: string): string;
  /** A column built with these functions, as the driver returns it, as a JavaScript value. */
  parse(value: unknown): unknown;
}

/** `'key', expression, ...`: the arguments of both engines' JSON object constructors. */
export function keyValueArguments(entries: ReadonlyArray<readonly [string, string]>): string {
  return entries
    .map(([key, expression]) => {
      if (!/^[a-z_][a-z0-9_]*$/i.test(key)) throw new Error(`not a plain JSON key: ${key}`);
      return `'${key}', ${expression}`;
    })
    .join(', ');
}

export const sqliteJson: JsonSql = {
  object: (entries) => `json_object(${keyValueArguments(entries)})`,
  // Over no rows (no GROUP BY) json_group_array answers '[]' by itself.
  arrayOf: (element, orderBy) => `json_group_array(${element} order by ${orderBy})`,
  parse: (value) => JSON.parse(value as string),
};

export const postgresJson: JsonSql = {
  object: (entries) => `json_build_object(${keyValueArguments(entries)})`,
  arrayOf: (element, orderBy) => `coalesce(json_agg(${element} order by ${orderBy}), '[]'::json)`,
  // node-postgres parses json columns itself.
  parse: (value) => value,
};
