import { request as httpRequest } from 'node:http';
import { statementsExecuted } from './metrics.js';
import type { Load, Scenario, ScenarioFixtures, Stage, StageFacts } from './scenarios/index.js';
import type { Target } from './targets.js';

/** Requests after the first, one at a time, each checked; their statements are averaged. */
const FOLLOWING_REQUESTS = 6;

export interface ProbeOutcome {
  /** Why the scenario's request does not do what it should; undefined when it does. */
  problem?: string;
  /** SQL statements per request (GraphQL scenarios on the service); null without /metrics. */
  statementsPerRequest?: number | null;
}

/**
 * Before a scenario is measured on a target: one request must answer what the scenario expects
 * (a scenario whose requests fail would measure nothing). On the service, six more follow, each
 * on a new connection so that every cluster worker has served the scenario before it is
 * measured; for GraphQL scenarios the service's /metrics counts their SQL statements.
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
    requests: FOLLOWING_REQUESTS + 1,
  });
  const bodies = load.bodies ?? [];
  const first = await send(target.url, load, bodies[0]);
  const problem = scenario.problem(first, { fixtures, facts });
  if (problem || target.kind !== 'service') return { problem };

  const counted = scenario.graphql;
  const before = counted ? await statementsExecuted(target.url, input.metricsToken) : undefined;
  for (let index = 1; index <= FOLLOWING_REQUESTS; index++) {
    const response = await send(target.url, load, bodies[index]);
    const failed = scenario.problem(response, { fixtures, facts });
    if (failed) return { problem: `request ${index + 1}: ${failed}` };
  }
  if (!counted) return {};
  const after = await statementsExecuted(target.url, input.metricsToken);
  return {
    statementsPerRequest:
      before === undefined || after === undefined
        ? null
        : Math.round(((after - before) / FOLLOWING_REQUESTS) * 100) / 100,
  };
}

/**
 * One request on a connection of its own: cluster workers take connections in turn, so the
 * probe's requests warm every worker rather than the one a kept-alive connection would reach.
 */
function send(
  baseUrl: string,
  load: Load,
  body: string | undefined,
): Promise<{ status: number; body: unknown }> {
  const payload = body ?? load.body;
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${baseUrl}${load.path}`,
      {
        method: load.method,
        headers: {
          ...load.headers,
          ...(payload !== undefined && { 'content-length': Buffer.byteLength(payload) }),
        },
        agent: false,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: parsed(text) }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text; // Not JSON: the problem check reports the text.
  }
}
