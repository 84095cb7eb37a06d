import { POSTINGS_PER_REQUEST, sourcedPostingBodies } from '../sourced-postings.js';
import {
  at,
  graphqlData,
  graphqlPost,
  peer,
  scenario,
  SERVICE,
  serviceTokens,
} from './requests.js';
import { SCENARIO_NAMES } from './names.js';
import type { Load, ProbeResponse, Scenario } from './types.js';

/**
 * Bodies of 100 postings are about 115 kB: a pool of 100 a second (70 MB for a 6 s measurement)
 * is several times what either target has written on the bench's machine; one that runs out
 * ends its round early, which the table shows.
 */
const MAX_BODIES_PER_SECOND = 100;

/**
 * A partner's feed sends its batches a few at a time; more connections would only queue behind
 * the writes (SQLite has one writer) and hold their bodies meanwhile.
 */
const MAX_CONNECTIONS = 4;
/**
 * A request of 100 postings takes from a few hundredths of a second to one (PostgreSQL, the
 * service, a loaded machine): a shorter measurement would count few answers, or none.
 */
const MIN_SECONDS = 6;

const POSTINGS = { name: 'postings', perRequest: POSTINGS_PER_REQUEST };

/**
 * Job Sync's batch write (issue 23): createSourcedJobPostings with 100 new postings a request,
 * to the writes employer, and its peer, a bare server making the same writes.
 */
export const jobSyncScenarios: Scenario[] = [
  scenario({
    name: SCENARIO_NAMES.sourcedPostings,
    subject: SERVICE,
    graphql: true,
    items: POSTINGS,
    maxBodiesPerSecond: MAX_BODIES_PER_SECOND,
    minSeconds: MIN_SECONDS,
    maxConnections: MAX_CONNECTIONS,
    comparison: { kind: 'peer', scenario: SCENARIO_NAMES.samePostingWritesPeer, min: 0.4 },
    load: async ({ tokens, requests }) => postingsLoad(serviceTokens(tokens).writes, requests),
    problem: postedProblem,
  }),
  scenario({
    name: SCENARIO_NAMES.samePostingWritesPeer,
    subject: peer('same-posting-writes'),
    graphql: true,
    items: POSTINGS,
    maxBodiesPerSecond: MAX_BODIES_PER_SECOND,
    minSeconds: MIN_SECONDS,
    maxConnections: MAX_CONNECTIONS,
    load: async ({ requests }) => postingsLoad(undefined, requests),
    problem: postedProblem,
  }),
];

/** New bodies each time, so that every request to either target inserts 100 postings. */
async function postingsLoad(token: string | undefined, requests: number): Promise<Load> {
  return { ...graphqlPost(token), bodies: await sourcedPostingBodies(requests) };
}

function postedProblem(response: ProbeResponse): string | undefined {
  const { data, problem } = graphqlData(response);
  if (problem) return problem;
  const results = at(data, 'jobsIngest', 'createSourcedJobPostings', 'results');
  if (!Array.isArray(results) || results.length !== POSTINGS_PER_REQUEST) {
    return `expected ${POSTINGS_PER_REQUEST} results, got ${JSON.stringify(results)?.slice(0, 200)}`;
  }
  const refused = results.findIndex(
    (result) => typeof at(result, 'jobPosting', 'sourcedPostingId') !== 'string',
  );
  return refused === -1 ? undefined : `posting ${refused} was not written`;
}
