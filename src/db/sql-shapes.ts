import type { Dialect } from './dialects/index.js';

type ShapePart = string | number | boolean;

/**
 * SQL text built once per shape and engine, then reused: a hot read runs no query builder per
 * call, and every call of a shape sends the same text, which the engines' prepared statement
 * caches recognise. `build` makes the text from the shape alone; what varies between calls of
 * one shape goes in the bindings (run with `dialect.select`).
 */
export function sqlByShape<Shape extends readonly ShapePart[]>(
  build: (dialect: Dialect, ...shape: Shape) => string,
): (dialect: Dialect, ...shape: Shape) => string {
  const built = new Map<string, string>();
  return (dialect, ...shape) => {
    const key = `${dialect.name}:${shape.join(':')}`;
    let sql = built.get(key);
    if (sql === undefined) built.set(key, (sql = build(dialect, ...shape)));
    return sql;
  };
}
