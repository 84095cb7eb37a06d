import { CREATE_EVENT, EVENTS_BY_ID, TYPENAME, createEventInput } from '../operations.js';
import {
  at,
  graphqlData,
  graphqlLoad,
  JSON_TYPE,
  serviceTokens,
  peer,
  scenario,
  SERVICE,
} from './requests.js';
import { SCENARIO_NAMES } from './names.js';
import type { Load, ProbeResponse, Scenario } from './types.js';

/**
 * Interview API writes (P8) and reads by id (P2), the gateway alone, and their peers: a bare
 * server making the same writes, and graphql-http.
 */
export const graphqlScenarios: Scenario[] = [
  scenario({
    name: SCENARIO_NAMES.create,
    subject: SERVICE,
    graphql: true,
    comparison: { kind: 'peer', scenario: SCENARIO_NAMES.sameWritesPeer, min: 0.5 },
    load: async ({ tokens }) => createLoad(serviceTokens(tokens).writes),
    problem: createdProblem,
  }),
  scenario({
    name: SCENARIO_NAMES.sameWritesPeer,
    subject: peer('same-writes'),
    graphql: true,
    load: async () => createLoad(undefined),
    problem: createdProblem,
  }),
  scenario({
    name: SCENARIO_NAMES.eventsById,
    subject: SERVICE,
    graphql: true,
    comparison: { kind: 'peer', scenario: SCENARIO_NAMES.graphqlPeer, min: 0.6 },
    load: async ({ tokens, fixtures }) =>
      graphqlLoad(serviceTokens(tokens).employer, EVENTS_BY_ID, { ids: [fixtures.eventId] }),
    problem(response, { fixtures }) {
      const { data, problem } = graphqlData(response);
      if (problem) return problem;
      const event = at(data, 'virtualInterviewEvents', 'events', 0);
      if (at(event, 'id') !== fixtures.eventId) return `event ${fixtures.eventId} not returned`;
      if (at(event, 'interviewersConnection', 'totalCount') !== 2) return 'expected 2 interviewers';
      if (at(event, 'intervieweesConnection', 'interviewees', 'length') !== 1)
        return 'expected an interviewee';
      return undefined;
    },
  }),
  scenario({
    name: SCENARIO_NAMES.typename,
    subject: SERVICE,
    graphql: true,
    comparison: { kind: 'peer', scenario: SCENARIO_NAMES.graphqlPeer },
    load: async ({ tokens }) => graphqlLoad(serviceTokens(tokens).employer, TYPENAME),
    problem: typenameProblem,
  }),
  scenario({
    name: SCENARIO_NAMES.graphqlPeer,
    subject: peer('graphql-http'),
    graphql: true,
    load: async () => ({
      path: '/graphql',
      method: 'POST',
      headers: { 'content-type': JSON_TYPE },
      body: JSON.stringify({ query: TYPENAME }),
    }),
    problem: typenameProblem,
  }),
];

/** The same body to the service and its same-writes peer (which needs no token). */
function createLoad(token: string | undefined): Load {
  return graphqlLoad(token, CREATE_EVENT, { input: createEventInput(Date.now()) });
}

function createdProblem(response: ProbeResponse): string | undefined {
  const { data, problem } = graphqlData(response);
  if (problem) return problem;
  const event = at(data, 'createVirtualInterviewEvent', 'event');
  const count = at(event, 'interviewersConnection', 'totalCount');
  if (count !== 6) return `expected 6 interviewers (5 and the creator), got ${String(count)}`;
  return at(event, 'status') === 'SCHEDULED' ? undefined : 'the event is not SCHEDULED';
}

function typenameProblem(response: ProbeResponse): string | undefined {
  const { data, problem } = graphqlData(response);
  const typename = at(data, '__typename');
  return problem ?? (typename === 'Query' ? undefined : `__typename is ${String(typename)}`);
}
