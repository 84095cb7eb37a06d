import DataLoader from 'dataloader';
import assert from 'node:assert/strict';
import { graphqlApis } from '../../src/apis.js';
import type { GraphQLApi } from '../../src/graphql/api.js';
import { composeApis, registrationProblems } from '../../src/graphql/api-registry.js';
import { readSdlModule, sdlModuleNames } from '../../src/graphql/schema.js';
import type { DispositionSyncCapability } from '../../src/disposition-sync/compose.js';
import type { JobSearchCapability } from '../../src/job-search/compose.js';
import type { Interviews } from '../../src/interviews/compose.js';
import type { Webhooks } from '../../src/webhooks/compose.js';
import type { JobSync } from '../../src/job-sync/compose.js';
import type { EmployerData } from '../../src/employer-data/compose.js';

/** The registered APIs; only their names and resolvers are looked at. */
const apis = graphqlApis({
  interviews: {} as Interviews,
  webhooks: {} as Webhooks,
  dispositionSync: {} as DispositionSyncCapability,
  jobSearch: {} as JobSearchCapability,
  jobSync: {} as JobSync,
  employerData: {} as EmployerData,
  publicUrl: 'http://127.0.0.1',
});
const [interview, ...others] = apis;

/** schema/ as it is, with some modules added or replaced. */
function modulesWith(extra: Record<string, string> = {}): Map<string, string> {
  const modules = new Map(sdlModuleNames().map((name) => [name, readSdlModule(name)]));
  for (const [name, text] of Object.entries(extra)) modules.set(name, text);
  return modules;
}

function without(resolvers: object, type: string, field: string): object {
  const typeResolvers = { ...(resolvers as Record<string, object>)[type] } as Record<
    string,
    unknown
  >;
  delete typeResolvers[field];
  return { ...resolvers, [type]: typeResolvers };
}

describe('the APIs behind the gateway', () => {
  it('match the SDL files under schema/ one to one, every field resolved once', () => {
    assert.deepEqual(sdlModuleNames(), [
      'common',
      'disposition-sync',
      'employer-data',
      'interview',
      'job-search',
      'job-sync',
      'webhooks',
    ]);
    assert.deepEqual(registrationProblems(apis), []);
  });

  it('name an SDL file that no API registers', () => {
    const problems = registrationProblems(
      apis,
      modulesWith({ jobs: 'extend type Query { jobs: [String!]! }' }),
    );
    assert.deepEqual(problems, [
      'schema/jobs.graphql has no registered API (add it to src/apis.ts)',
    ]);
  });

  it('name an API registered without its SDL file, or registered twice', () => {
    const jobs = { name: 'jobs', resolvers: {} };
    assert.deepEqual(registrationProblems([...apis, jobs]), [
      'the jobs API is registered but schema/jobs.graphql does not exist',
    ]);
    assert.deepEqual(registrationProblems([...apis, interview]), [
      'two APIs are registered as "interview"',
    ]);
  });

  it('name a field of an API’s SDL that its resolvers leave out', () => {
    const problems = registrationProblems([
      { ...interview, resolvers: without(interview.resolvers, 'VirtualInterviewEvent', 'title') },
      ...others,
    ]);
    assert.deepEqual(problems, [
      'the interview API has no resolver for VirtualInterviewEvent.title (schema/interview.graphql)',
    ]);
    const root = registrationProblems([
      { ...interview, resolvers: without(interview.resolvers, 'Query', 'virtualInterviewEvents') },
      ...others,
    ]);
    assert.deepEqual(root, [
      'the interview API has no resolver for Query.virtualInterviewEvents (schema/interview.graphql)',
    ]);
  });

  it('name a resolver for what the API’s SDL does not define', () => {
    const resolvers = { ...interview.resolvers, PageInfo: { hasNextPage: () => false } };
    assert.deepEqual(registrationProblems([{ ...interview, resolvers }, ...others]), [
      'the interview API resolves PageInfo.hasNextPage, which schema/interview.graphql does not define',
    ]);
  });

  it('name a type or a field that two SDL files define', () => {
    const jobs = {
      name: 'jobs',
      resolvers: {
        Query: { findVirtualInterviewEvents: () => null, jobs: () => [] },
        PageInfo: { total: () => 0 },
      },
    };
    const problems = registrationProblems(
      [...apis, jobs],
      modulesWith({
        jobs: `
          extend type Query { findVirtualInterviewEvents: Int  jobs: [String!]! }
          type PageInfo { total: Int! }
        `,
      }),
    );
    assert.deepEqual(problems, [
      'PageInfo is defined by both schema/common.graphql and schema/jobs.graphql',
      'Query.findVirtualInterviewEvents is defined by both schema/interview.graphql and schema/jobs.graphql',
    ]);
  });

  it('stop the gateway from starting when they do not match, saying why', () => {
    const broken: GraphQLApi = {
      ...interview,
      resolvers: without(interview.resolvers, 'VirtualInterviewJobInfo', 'title'),
    };
    assert.throws(
      () => composeApis([broken, ...others]),
      /do not match schema\/:\n- the interview API has no resolver for VirtualInterviewJobInfo\.title/,
    );
  });

  it('give each request every API’s part of the context next to the gateway’s', () => {
    const interviews = {
      writer: 'writer',
      finder: 'finder',
      createLoaders: () => 'loaders',
      settleNow: () => 'settle',
    } as unknown as Interviews;
    const webhooks = { endpoints: 'endpoints', deliveryLog: 'log' } as unknown as Webhooks;
    const dispositionSync = {
      dispositions: 'dispositions',
    } as unknown as DispositionSyncCapability;
    const jobSearch = { search: 'search' } as unknown as JobSearchCapability;
    const jobSync = { writer: 'postings', now: () => 42 } as unknown as JobSync;
    const employerData = { patcher: 'patcher' } as unknown as EmployerData;
    const { createContext } = composeApis(
      graphqlApis({
        interviews,
        webhooks,
        dispositionSync,
        jobSearch,
        jobSync,
        employerData,
        publicUrl: 'http://x',
      }),
    );
    const request = { requestId: 'r-1' } as Parameters<typeof createContext>[0];
    const {
      webhookAttempts,
      jobSync: { postings, ...jobSyncPart },
      ...context
    } = createContext(request) as unknown as Record<string, unknown> & {
      jobSync: Record<string, unknown>;
    };
    assert.ok(webhookAttempts instanceof DataLoader, 'a loader of this request');
    assert.ok(postings instanceof DataLoader, 'a loader of this request');
    assert.deepEqual(jobSyncPart, { writer: 'postings', now: 42, publicUrl: 'http://x' });
    assert.deepEqual(context, {
      requestId: 'r-1',
      loaders: 'loaders',
      interviews: { writer: 'writer', finder: 'finder' },
      settle: 'settle',
      webhooks: { endpoints: 'endpoints', deliveryLog: 'log' },
      dispositions: 'dispositions',
      jobSearch: 'search',
      employerData: { patcher: 'patcher' },
    });
  });
});
