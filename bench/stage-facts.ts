import type { Database } from '../src/db/database.js';
import { FIND_EVENTS_CURSOR } from './operations.js';
import { PAGE_SIZE } from './options.js';
import { TWO_KEY_SORT, type StageFacts } from './scenarios/index.js';

/**
 * What the P3 scenarios must find at a stage: the measured employer's events and those in the
 * range, counted by the database itself, and the cursors of the deep pages, walked page by page
 * through the service (a cursor is only valid for the query that produced it).
 */
export async function stageFacts(input: {
  db: Database;
  employerId: string;
  range: { from: number; until: number };
  serviceUrl: string;
  token: string;
  deepPage: number;
}): Promise<StageFacts> {
  const { db, employerId, range } = input;
  const count = async (query: ReturnType<Database>) =>
    Number(((await query.count({ count: '*' })) as Array<{ count: number | string }>)[0]?.count);
  const events = () => db('interview_events').where('employer_id', employerId);
  const walk = (sort?: object) => cursorBefore(input, input.deepPage, sort ? { sort } : {});
  return {
    total: await count(events()),
    rangeTotal: await count(
      events().where('start_at', '>=', range.from).where('start_at', '<', range.until),
    ),
    deepCursors: { defaultSort: await walk(), twoKeySort: await walk(TWO_KEY_SORT) },
  };
}

/** The endCursor of page `page - 1`: what `after` must be to read page `page`. */
async function cursorBefore(
  input: { serviceUrl: string; token: string },
  page: number,
  findInput: object,
): Promise<string> {
  let after: string | undefined;
  for (let index = 1; index < page; index++) {
    const response = await fetch(`${input.serviceUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${input.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: FIND_EVENTS_CURSOR,
        variables: { first: PAGE_SIZE, input: findInput, ...(after && { after }) },
      }),
    });
    const body = (await response.json()) as {
      data?: {
        findVirtualInterviewEvents: { pageInfo: { hasNextPage: boolean; endCursor: string } };
      };
      errors?: unknown[];
    };
    const pageInfo = body.data?.findVirtualInterviewEvents.pageInfo;
    if (!pageInfo?.hasNextPage) {
      throw new Error(
        `walking to page ${page}: page ${index} ${JSON.stringify(body.errors ?? body)}`,
      );
    }
    after = pageInfo.endCursor;
  }
  if (!after) throw new Error('the deep page must be page 2 or later');
  return after;
}
