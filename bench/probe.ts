import { statementsExecuted } from './metrics.js';
import type { Load, Scenario, ScenarioFixtures, Stage, StageFacts } from './scenarios/index.js';
import type { Target } from './targets.js';

/** Sequential requests whose statements are counted, averaged per request. */
const COUNTED_REQUESTS = 10;

export interface ProbeOutcome {
  /** Why the scenario's request does not do what it should; undefined when it does. */
  problem?: string;
  /** SQL statements per request (GraphQL scenarios on the service); null without /metrics. */
  statementsPerRequest?: number | null;
}

/**
 * Before a scenario is measured on a target: one request must answer what the scenario expects
 * (a scenario whose requests fail would measure nothing). For GraphQL scenarios on the service,
 * then counts the SQL statements of a few requests from the service's /metrics.
 */
export async function probe(input: {
  scenario: Scenario;
  target: Target;
  stage: Stage;
  facts: StageFacts;
  fixtures: ScenarioFixtures;
  metricsToken: string;
}): Promise<ProbeOutcome> {
  const { scenario, target, stage, facts, fixtures } = input;
  const load = await scenario.load({
    fixtures,
    tokens: target.kind === 'service' ? target.tokens : undefined,
    stage,
    facts,
    requests: COUNTED_REQUESTS + 1,
  });
  const bodies = load.bodies ?? [];
  const first = await send(target.url, load, bodies[0]);
  const problem = scenario.problem(first, { fixtures, facts });
  if (problem || target.kind !== 'service' || !scenario.graphql) return { problem };

  const before = await statementsExecuted(target.url, input.metricsToken);
  if (before === undefined) return { statementsPerRequest: null };
  for (let index = 1; index <= COUNTED_REQUESTS; index++) {
    const response = await send(target.url, load, bodies[index]);
    const failed = scenario.problem(response, { fixtures, facts });
    if (failed) return { problem: `request ${index + 1}: ${failed}` };
  }
  const after = await statementsExecuted(target.url, input.metricsToken);
  return {
    statementsPerRequest: after === undefined ? null : (after - before) / COUNTED_REQUESTS,
  };
}

async function send(
  baseUrl: string,
  load: Load,
  body: string | undefined,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${baseUrl}${load.path}`, {
    method: load.method,
    headers: load.headers,
    body: body ?? load.body,
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: the problem check reports the text.
  }
  return { status: response.status, body: parsed };
}
