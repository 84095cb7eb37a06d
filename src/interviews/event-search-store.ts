import type { Knex } from 'knex';
import { TALLY_COUNT_COLUMN } from '../db/row-tally.js';
import { Store } from '../db/store.js';
import type { CountPlan, DayRange } from './event-count.js';
import type { EventGraph, EventParts } from './event-graph.js';
import { eventGraphOf, eventPartColumns } from './event-graph-store.js';
import { withImpliedBounds, type EventFilters, type InstantRange } from './event-filter.js';
import type { EventOrder, EventPosition } from './event-sort.js';

export interface EventPageQuery {
  employerId: string;
  filters: EventFilters;
  order: EventOrder;
  /** The position of the last event of the previous page; null for the first page. */
  after: EventPosition | null;
  limit: number;
  /** The lists read with each event, in the same statement. */
  parts: EventParts;
}

/**
 * The SQL of `findVirtualInterviewEvents`. Every query starts with `employer_id =`, the leading
 * column of each `interview_events_employer_*` index, so it only ever reads one employer's
 * events, and pages are cut by key comparison (keyset), never by OFFSET.
 */
export class EventSearchStore extends Store {
  /**
   * How many events pass the filters, whatever the page, in one statement: the counts the
   * database keeps per employer and per start day (migration 0010) for what `plan` sums whole,
   * and the events themselves only for its exact terms (see planCount).
   */
  async count(employerId: string, plan: CountPlan): Promise<number> {
    const terms: Array<{ sign: number; query: Knex.QueryBuilder }> = plan.exact.map((term) => ({
      sign: term.sign,
      query: this.matching(employerId, term).count('*'),
    }));
    if (plan.wholeDays) terms.push({ sign: 1, query: this.kept(employerId, plan.wholeDays) });
    if (terms.length === 0) return 0;
    const [row] = await this.db.select(terms.map(({ query }, index) => query.as(`term${index}`)));
    return terms.reduce(
      (sum, { sign }, index) => sum + sign * Number(row?.[`term${index}`] ?? 0),
      0,
    );
  }

  /**
   * Up to `limit` events that pass the filters and come after `after`, in order, each with the
   * lists `parts` names. The lists are read around the page, not inside it, so that they are
   * read for the page's events only, whether or not the engine sorts the matching events.
   */
  async page(request: EventPageQuery): Promise<EventGraph[]> {
    const { employerId, filters, order, after, limit, parts } = request;
    const { dialect } = this;
    const ordered = (prefix: string) =>
      order.map((key) => ({
        column: `${prefix}${key.column}`,
        order: key.descending ? ('desc' as const) : ('asc' as const),
      }));
    const page = this.matching(employerId, withImpliedBounds(filters))
      .select('*')
      .orderBy(ordered(''))
      .limit(limit);
    if (after) page.where((builder) => afterPosition(builder, order, after));
    const lists = eventPartColumns(dialect, parts, 'page');
    const rows: Array<Record<string, unknown>> = lists.length
      ? await this.db
          .select(['page.*', ...lists.map((column) => this.db.raw(column))])
          .from(page.as('page'))
          .orderBy(ordered('page.'))
      : await page;
    return rows.map((row) => eventGraphOf(dialect, row));
  }

  /** The kept count of the employer's events that start on the days of `days`. */
  private kept(employerId: string, { fromDay, untilDay }: DayRange): Knex.QueryBuilder {
    const sum = this.db.raw('coalesce(sum(??), 0)', [TALLY_COUNT_COLUMN]);
    if (fromDay === null && untilDay === null) {
      return this.db('interview_event_counts').where('employer_id', employerId).select(sum);
    }
    const query = this.db('interview_event_start_day_counts')
      .where('employer_id', employerId)
      .select(sum);
    if (fromDay !== null) query.where('start_day', '>=', fromDay);
    if (untilDay !== null) query.where('start_day', '<', untilDay);
    return query;
  }

  private matching(employerId: string, filters: EventFilters) {
    const query = this.db('interview_events').where('employer_id', employerId);
    withinRange(query, 'start_at', filters.startAt);
    withinRange(query, 'end_at', filters.endAt);
    return query;
  }
}

function withinRange(query: Knex.QueryBuilder, column: string, range: InstantRange): void {
  if (range.from !== null) query.where(column, '>=', range.from);
  if (range.until !== null) query.where(column, '<', range.until);
}

/**
 * "Comes after `position` in `order`", spelled out key by key because the directions may differ
 * (a row-value comparison `(a, b) > (x, y)` only works when every key runs the same way):
 *
 *   k1 >= v1 AND (k1 > v1 OR (k1 = v1 AND k2 > v2) OR (k1 = v1 AND k2 = v2 AND k3 > v3))
 *
 * with `<` in place of `>` for descending keys. The leading `k1 >= v1` adds nothing logically;
 * it gives the planner a range on the index column that follows `employer_id`, so the scan
 * starts at the cursor instead of at the employer's first event.
 */
function afterPosition(
  builder: Knex.QueryBuilder,
  order: EventOrder,
  position: EventPosition,
): void {
  if (position.length !== order.length) {
    throw new Error(`a position of ${position.length} values for an order of ${order.length} keys`);
  }
  const bounds = order.map((key, index) => ({ ...key, value: position[index] as number | string }));
  const [leading] = bounds;
  if (!leading) return;
  builder.where(leading.column, leading.descending ? '<=' : '>=', leading.value);
  builder.where((alternatives) => {
    bounds.forEach((bound, index) => {
      alternatives.orWhere((branch) => {
        for (const tied of bounds.slice(0, index)) branch.where(tied.column, tied.value);
        branch.where(bound.column, bound.descending ? '<' : '>', bound.value);
      });
    });
  });
}
