import { boundingBox, type Point } from './geo.js';

/**
 * A fixed grid over latitude and longitude at two sizes: each indexed posting records its cell
 * at each level (columns of job_search_postings), and a radius search asks the text index for
 * the few cells its circle's bounding box touches, at the finest level where they are few. The
 * text index then reads only the rows of the place (src/db/dialects/text-search.ts), and the
 * work of a page does not grow with the postings elsewhere.
 */
export const GRID_LEVELS = [
  { column: 'cell_fine', degrees: 0.5 },
  { column: 'cell_coarse', degrees: 2 },
] as const;

/** A radius search names at most this many cells; more, and it uses the next level. */
export const MOST_CELLS_PER_SEARCH = 25;

export type CellColumn = (typeof GRID_LEVELS)[number]['column'];

/** The cell of each level that holds `point`, by column. */
export function cellsOf(point: Point): Record<CellColumn, number> {
  const cells = {} as Record<CellColumn, number>;
  for (const level of GRID_LEVELS) {
    cells[level.column] = cellId(
      level.degrees,
      row(level.degrees, point.latitude),
      column(level.degrees, point.longitude),
    );
  }
  return cells;
}

/**
 * The cells of the finest level whose union covers every point within `radiusKm` of `center`,
 * with no more than MOST_CELLS_PER_SEARCH of them; null when even the coarsest level needs more
 * (a circle around a pole), and the search then reads by bounding box alone.
 */
export function coveringCells(
  center: Point,
  radiusKm: number,
): { column: CellColumn; ids: number[] } | null {
  const box = boundingBox(center, radiusKm);
  for (const level of GRID_LEVELS) {
    const size = level.degrees;
    const columns = 360 / size;
    const rows = { from: row(size, box.latitude.min), to: row(size, box.latitude.max) };
    const span = box.longitude
      ? {
          from: Math.floor((box.longitude.min + 180) / size),
          to: Math.floor((box.longitude.max + 180) / size),
        }
      : { from: 0, to: columns - 1 };
    const count = (rows.to - rows.from + 1) * Math.min(columns, span.to - span.from + 1);
    if (count > MOST_CELLS_PER_SEARCH) continue;
    const ids = new Set<number>();
    for (let r = rows.from; r <= rows.to; r++) {
      for (let c = span.from; c <= span.to; c++) {
        ids.add(cellId(size, r, ((c % columns) + columns) % columns));
      }
    }
    return { column: level.column, ids: [...ids].sort((a, b) => a - b) };
  }
  return null;
}

function row(size: number, latitude: number): number {
  return Math.min(180 / size - 1, Math.max(0, Math.floor((latitude + 90) / size)));
}

function column(size: number, longitude: number): number {
  const columns = 360 / size;
  const index = Math.floor((longitude + 180) / size);
  return ((index % columns) + columns) % columns;
}

function cellId(size: number, rowIndex: number, columnIndex: number): number {
  return rowIndex * (360 / size) + columnIndex;
}
