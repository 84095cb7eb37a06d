import { ceilingScenarios } from './ceilings.js';
import { findScenario, findShapes } from './find.js';
import { graphqlScenarios } from './graphql.js';
import { jobSyncScenarios } from './job-sync.js';
import { tokenScenarios } from './tokens.js';
import type { Scenario } from './types.js';

export { SCENARIO_NAMES } from './names.js';
export { TWO_KEY_SORT } from './find.js';
export type * from './types.js';

/** Every scenario, in the order a round runs them (each service scenario next to its peer). */
export function allScenarios(deepPage: number): Scenario[] {
  const shapes = findShapes(deepPage);
  return [
    ...tokenScenarios,
    ...graphqlScenarios,
    ...jobSyncScenarios,
    ...ceilingScenarios,
    ...shapes.map((shape) => findScenario(shape, true)),
    findScenario(shapes[0]!, false),
  ];
}

/**
 * The scenarios --only selects (by part of the name), with the peers their ratios need; none
 * when it names only the webhook stage (bench/webhook-stage.ts).
 */
export function selectScenarios(scenarios: Scenario[], only: readonly string[]): Scenario[] {
  if (!only.length) return scenarios;
  const wanted = new Set(
    scenarios
      .filter((scenario) =>
        only.some((part) => scenario.name.toLowerCase().includes(part.toLowerCase())),
      )
      .flatMap((scenario) => [
        scenario.name,
        ...(scenario.comparison?.kind === 'peer' ? [scenario.comparison.scenario] : []),
      ]),
  );
  return scenarios.filter((scenario) => wanted.has(scenario.name));
}
