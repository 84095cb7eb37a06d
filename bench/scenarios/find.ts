import { FIND_EVENTS } from '../operations.js';
import { PAGE_SIZE } from '../options.js';
import { at, BOTH_STAGES, graphqlData, graphqlLoad, serviceTokens } from './requests.js';
import type { Scenario, ScenarioFixtures, StageFacts } from './types.js';

/** The shapes of findVirtualInterviewEvents that P3 measures. */
interface FindShape {
  label: string;
  input(fixtures: ScenarioFixtures): Record<string, unknown>;
  /** The page read: 1, or the deep page (reached with the cursor `after`). */
  page: number;
  after?(facts: StageFacts): string;
  expectedTotal(facts: StageFacts): number;
}

export const TWO_KEY_SORT = [
  { field: 'END_TIME', order: 'ASC' },
  { field: 'START_TIME', order: 'ASC' },
];

export function findShapes(deepPage: number): FindShape[] {
  return [
    {
      label: 'default sort, page 1',
      input: () => ({}),
      page: 1,
      expectedTotal: (facts) => facts.total,
    },
    {
      label: `default sort, page ${deepPage}`,
      input: () => ({}),
      page: deepPage,
      after: (facts) => facts.deepCursors.defaultSort,
      expectedTotal: (facts) => facts.total,
    },
    {
      label: 'sort endTime+startTime, page 1',
      input: () => ({ sort: TWO_KEY_SORT }),
      page: 1,
      expectedTotal: (facts) => facts.total,
    },
    {
      label: `sort endTime+startTime, page ${deepPage}`,
      input: () => ({ sort: TWO_KEY_SORT }),
      page: deepPage,
      after: (facts) => facts.deepCursors.twoKeySort,
      expectedTotal: (facts) => facts.total,
    },
    {
      label: 'startTime range, page 1',
      input: (fixtures) => ({ startTime: fixtures.range }),
      page: 1,
      expectedTotal: (facts) => facts.rangeTotal,
    },
  ];
}

export function findScenario(shape: FindShape, serial: boolean): Scenario {
  return {
    name: `P3 findVirtualInterviewEvents first:${PAGE_SIZE}, ${shape.label}${serial ? '' : ', under load'}`,
    subject: { kind: 'service' },
    stages: BOTH_STAGES,
    serial,
    graphql: true,
    comparison: { kind: 'growth', ...(serial && { max: 1.5 }) },
    load: async ({ tokens, fixtures, facts }) =>
      graphqlLoad(serviceTokens(tokens).employer, FIND_EVENTS, {
        first: PAGE_SIZE,
        input: shape.input(fixtures),
        ...(shape.after && { after: shape.after(facts) }),
      }),
    problem(response, { facts }) {
      const { data, problem } = graphqlData(response);
      if (problem) return problem;
      const page = at(data, 'findVirtualInterviewEvents');
      const expected = shape.expectedTotal(facts);
      const totalCount = at(page, 'totalCount');
      if (totalCount !== expected) {
        return `totalCount ${String(totalCount)} but the database holds ${expected} matching events`;
      }
      const before = (shape.page - 1) * PAGE_SIZE;
      const edges = Math.max(0, Math.min(PAGE_SIZE, expected - before));
      const hasNextPage = expected > before + PAGE_SIZE;
      if (
        at(page, 'edges', 'length') !== edges ||
        at(page, 'pageInfo', 'hasNextPage') !== hasNextPage
      ) {
        return `page ${shape.page} should hold ${edges} events and ${hasNextPage ? 'a' : 'no'} next page`;
      }
      return undefined;
    },
  };
}
