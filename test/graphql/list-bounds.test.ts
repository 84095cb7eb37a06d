import assert from 'node:assert/strict';
import {
  getNamedType,
  getNullableType,
  isListType,
  isObjectType,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
} from 'graphql';
import { EventCursors } from '../../src/interviews/event-cursor.js';
import { EventFinder } from '../../src/interviews/event-finder.js';
import type { EventSearchStore } from '../../src/interviews/event-search-store.js';
import { MAX_EVENT_IDS, NESTED_LIST_BOUNDS } from '../../src/interviews/list-bounds.js';
import { MAX_ADMISSIONS_PER_INTERVIEWEE } from '../../src/interviews/rules/admissions.js';
import { MAX_INVITED_INTERVIEWERS } from '../../src/interviews/rules/interviewers.js';
import type { GatewayContext } from '../../src/graphql/api.js';
import type { DeliveryStore } from '../../src/webhooks/delivery-store.js';
import { WebhookEndpointService } from '../../src/webhooks/endpoint-service.js';
import type { ManagedEndpointStore } from '../../src/webhooks/managed-endpoint-store.js';
import { StoredDeliveryLog } from '../../src/webhooks/stored-delivery-log.js';
import { webhooksApi } from '../../src/webhooks/graphql/webhooks-api.js';
import { DispositionSync } from '../../src/disposition-sync/disposition-sync.js';
import type { DispositionStore } from '../../src/disposition-sync/disposition-store.js';
import { MAX_DISPOSITIONS_PER_REQUEST } from '../../src/disposition-sync/vocabulary.js';
import { costDirectivesOf, type ListSize } from '../../src/graphql/limits/cost-directives.js';
import { listItemsFor } from '../../src/graphql/limits/cost-plan.js';
import { systemClock } from '../../src/clock.js';
import { jobSearchApi } from '../../src/job-search/graphql/job-search-api.js';
import { MOST_ATTRIBUTES } from '../../src/job-search/job-attributes.js';
import { JobSearch } from '../../src/job-search/job-search.js';
import { Places } from '../../src/job-search/places/places.js';
import type { SearchStore } from '../../src/job-search/search-store.js';
import { gatewayApis } from '../support/gateway-schema.js';
import { endpointRow } from '../support/webhook-rows.js';
import { MAX_NODE_IDS, MAX_SURFACES } from '../../src/job-sync/graphql/list-bounds.js';
import type { StoredPosting } from '../../src/job-sync/posting.js';
import { PostingNotices } from '../../src/job-sync/posting-notices.js';
import type { WebhookOutbox } from '../../src/webhooks/outbox.js';
import type { PostingStore } from '../../src/job-sync/posting-store.js';
import {
  MAX_EXPIRIES_PER_REQUEST,
  MAX_POSTINGS_PER_REQUEST,
  PostingWriter,
  type EmployerDirectory,
} from '../../src/job-sync/posting-writer.js';

/**
 * Every list an answer can hold has a true bound: its `@listSize` in the SDL sizes it (never the
 * UNSIZED_LIST_ITEMS guess), and the resolver that makes it never answers more than the cost model
 * assumes, whatever is stored, since each bound is either a page size the resolver enforces or a
 * domain cap written into the schema's descriptions.
 */

const { schema } = gatewayApis;
const directives = costDirectivesOf(schema);
const EMPLOYER = 'employer-1';

/**
 * `Type.field` of every list an answer can hold whose items cost anything (introspection left
 * out): lists of scalars cost nothing in the cost model, unless the SDL weighs them.
 */
function listFields(): string[] {
  return Object.values(schema.getTypeMap()).flatMap((type) =>
    isObjectType(type) && !type.name.startsWith('__')
      ? Object.values(type.getFields())
          .filter(
            (field) =>
              isListType(getNullableType(field.type)) && directives.weightOf(type.name, field) > 0,
          )
          .map((field) => `${type.name}.${field.name}`)
      : [],
  );
}

/** `Type.field` of every field whose `@listSize` sizes lists. */
function sizingFields(): string[] {
  return Object.values(schema.getTypeMap()).flatMap((type) =>
    isObjectType(type) && !type.name.startsWith('__')
      ? Object.keys(type.getFields())
          .map((field) => `${type.name}.${field}`)
          .filter((coordinate) => directives.listSizeOf(coordinate))
      : [],
  );
}

/** What sizes `list`: its own `@listSize`, or that of every field returning its parent. */
function unsizedThrough(list: string): string[] {
  if (directives.listSizeOf(list) && !directives.listSizeOf(list)!.sizedFields.length) return [];
  const [parent, name] = list.split('.');
  return fieldsReturning(parent!)
    .filter((field) => !directives.listSizeOf(field)?.sizedFields.includes(name!))
    .map((field) => `${list} (through ${field})`);
}

/** The items the cost model gives the lists `coordinate` sizes, for these arguments. */
function assumedItems(coordinate: string, args: Record<string, unknown>): number {
  const [typeName, fieldName] = coordinate.split('.');
  const type = schema.getType(typeName!);
  assert.ok(isObjectType(type));
  const listSize: ListSize = directives.listSizeOf(coordinate)!;
  return listItemsFor(coordinate, type.getFields()[fieldName!]!, listSize, args);
}

/** `Type.field` of every field whose result is a `typeName`. */
function fieldsReturning(typeName: string): string[] {
  return Object.values(schema.getTypeMap()).flatMap((type) =>
    isObjectType(type) && !type.name.startsWith('__')
      ? Object.values(type.getFields())
          .filter((field) => getNamedType(field.type).name === typeName)
          .map((field) => `${type.name}.${field.name}`)
      : [],
  );
}

function resolverOf(coordinate: string): GraphQLFieldResolver<unknown, unknown> {
  const [typeName, fieldName] = coordinate.split('.');
  const type = schema.getType(typeName!);
  assert.ok(isObjectType(type));
  return type.getFields()[fieldName!]!.resolve!;
}

function items(count: number, prefix: string) {
  return Array.from({ length: count }, (_, i) => ({
    id: `${prefix}-${String(i).padStart(4, '0')}`,
    event_id: 'event-1',
    interviewee_id: 'interviewee-1',
    record_id: 'record-1',
    employer_id: EMPLOYER,
    start_at: i * 1000,
    end_at: i * 1000 + 500,
  }));
}

/** Far more than any bound: rows stored before a cap existed, or a broken rule. */
const STORED = 3 * MAX_EVENT_IDS + 7;

/** What a resolver gives back when asked with `args`: the lengths of the lists it holds. */
type Probe = (args: Record<string, unknown>) => Promise<number[]>;

/** What the resolvers read of the resolve info: no selection below the field. */
const NO_INFO = { fieldNodes: [], fragments: {} } as unknown as GraphQLResolveInfo;

const context = {
  principal: { employerId: EMPLOYER },
  loaders: {
    event: { load: async (id: string) => ({ ...items(1, id)[0], id }), prime: () => undefined },
    eventGraphs: async (_employerId: string, ids: string[]) =>
      new Map(ids.map((id) => [id, { ...items(1, id)[0], id }])),
    prime: () => undefined,
    interviewersOfEvent: { load: async () => items(STORED, 'interviewer') },
    intervieweesOfEvent: { load: async () => items(STORED, 'interviewee') },
    recordsOfInterviewee: { load: async () => items(STORED, 'record') },
    outcomesOfRecord: { load: async () => items(STORED, 'outcome') },
  },
  interviews: {
    // A store that answers more rows than it was asked for: the finder must still cut the page.
    finder: new EventFinder(
      {
        page: async () => items(STORED, 'event').map((event) => ({ event })),
        count: async () => STORED,
      } as unknown as EventSearchStore,
      new EventCursors('x'.repeat(32)),
    ),
  },
};

/**
 * The webhook-management API's context for an app's own token, over the real service and
 * delivery log whose stores answer far more rows than asked for.
 */
const webhooksContext = (() => {
  const endpoint = (id: string) => endpointRow({ id, app_id: 'app-1' });
  const delivery = (id: number) => ({ id, created_at: 2000 + id, status: 'pending' });
  const log = new StoredDeliveryLog(
    {
      list: async () => Array.from({ length: STORED }, (_, i) => delivery(i + 1)),
      attempts: async (_appId: string, deliveryIds: readonly number[]) =>
        deliveryIds.flatMap((deliveryId) =>
          Array.from({ length: STORED }, (_, i) => ({
            id: i + 1,
            delivery_id: deliveryId,
            attempted_at: i,
          })),
        ),
    } as unknown as DeliveryStore,
    () => undefined,
  );
  // Reads touch only the store and the delivery log; nothing here writes.
  const unused = undefined as never;
  const endpoints = new WebhookEndpointService(
    {
      find: async (_appId: string, id: string) => endpoint(id),
      listForApp: async () => items(STORED, 'endpoint').map(({ id }) => endpoint(id)),
    } as unknown as ManagedEndpointStore,
    unused,
    log,
    unused,
    unused,
    unused,
    unused,
    unused,
    unused,
  );
  const request = { principal: { kind: 'app', appId: 'app-1', employerId: null } };
  return {
    ...request,
    ...webhooksApi({ endpoints, deliveryLog: log }).createContext(request as GatewayContext),
  };
})();

/** The job search API over an index that answers far more rows than asked for. */
const jobSearchContext = jobSearchApi(
  new JobSearch(
    {
      search: async () =>
        Array.from({ length: STORED }, (_, i) => ({
          sort_key: STORED - i,
          sourced_posting_id: `posting-${i}`,
        })),
    } as unknown as SearchStore,
    new Places(),
    systemClock,
    { maxRadiusMiles: 100, batchesPerPage: 20 },
  ),
).createContext({} as GatewayContext);

/** The lists of a connection or payload, each read through its own resolver. */
async function listsOf(
  parentType: string,
  parent: unknown,
  within: object = context,
): Promise<number[]> {
  const type = schema.getType(parentType);
  assert.ok(isObjectType(type));
  const lengths: number[] = [];
  for (const field of Object.values(type.getFields())) {
    if (!isListType(getNullableType(field.type)) || !isObjectType(getNamedType(field.type))) {
      continue;
    }
    const value = await field.resolve!(parent, {}, within, NO_INFO);
    lengths.push((value as unknown[]).length);
  }
  return lengths;
}

function probe(
  coordinate: string,
  parent: unknown = { id: 'parent-1' },
  within: object = context,
): Probe {
  return async (args) => {
    const result = await resolverOf(coordinate)(parent, args, within, NO_INFO);
    const returned = schema.getType(coordinate.split('.')[0]!);
    assert.ok(isObjectType(returned));
    const field = returned.getFields()[coordinate.split('.')[1]!]!;
    return listsOf(getNamedType(field.type).name, result, within);
  };
}

const storedDelivery = { id: 1, created_at: 2001, status: 'pending' };

/** Disposition Sync over a store that answers far more rows than asked for. */
const dispositionsContext = (() => {
  const row = (id: number) => ({
    id,
    identified_by: JSON.stringify({ indeedApplyID: `apply-${id}` }),
    status_changed_at: 1000 - id,
    status_change_offset: 0,
    received_at: 1,
  });
  const store = {
    page: async () => Array.from({ length: STORED }, (_, i) => row(i + 1)),
    inTransaction: async (work: (store: unknown) => Promise<unknown>) =>
      work({ insertNew: async () => undefined }),
  } as unknown as DispositionStore;
  const dispositions = new DispositionSync(store, { now: () => Date.UTC(2026, 0, 1) });
  return { principal: { appId: 'app-1', employerId: EMPLOYER }, dispositions };
})();

/** The most dispositions a send takes, each failing (a blank ATS name): the longest answer. */
const failingDispositions = Array.from({ length: MAX_DISPOSITIONS_PER_REQUEST }, (_, i) => ({
  identifiedBy: { ittk: `ittk-${i}` },
  dispositionStatus: 'NEW',
  rawDispositionStatus: 'New',
  atsName: ' ',
  statusChangeDateTime: '2025-01-31T12:00:00Z',
}));
/**
 * Job Sync's context over the real writer, whose store knows no posting: every posting of a
 * batch is refused by a rule and every id to expire is unknown, so that each answers its list
 * without a database, as long as the input the writer accepts.
 */
const jobSyncContext = (() => {
  const store = {
    inTransaction: (work: (store: unknown, tx: unknown) => unknown) => work(store, {}),
    owned: async () => [],
    lockByKeys: async () => new Map(),
  } as unknown as PostingStore;
  const writer = new PostingWriter(
    store,
    { now: () => 0 },
    { indexingDelayMs: 0 },
    {} as EmployerDirectory,
    new PostingNotices([], {} as WebhookOutbox),
  );
  return {
    principal: { kind: 'app', appId: 'app-1', employerId: EMPLOYER },
    jobSync: { writer, postings: { load: async () => null }, now: 0, publicUrl: 'http://x' },
  };
})();

/** A batch the writer takes: `count` postings, each with its own key and a country it refuses. */
function refusedPostings(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    body: { location: { country: 'XX' } },
    metadata: { jobSource: { sourceName: 'probe' }, jobPostingId: `p-${i}` },
  }));
}

const somePosting = { employerJobId: 'ej-1', content: {} } as unknown as StoredPosting;

/** The arguments each Job Sync list is tried with: the most its resolver accepts. */
const JOB_SYNC_ARGUMENTS: Record<string, Record<string, unknown>> = {
  'Query.nodes': { ids: Array.from({ length: MAX_NODE_IDS }, (_, i) => `id-${i}`) },
  'Mutation.createSourcedJobPostings': {
    input: { jobPostings: refusedPostings(MAX_POSTINGS_PER_REQUEST) },
  },
  'JobsIngestMutations.createSourcedJobPostings': {
    input: { jobPostings: refusedPostings(MAX_POSTINGS_PER_REQUEST) },
  },
  'JobsIngestMutations.expireSourcedJobsBySourcedPostingId': {
    input: {
      jobs: Array.from({ length: MAX_EXPIRIES_PER_REQUEST }, (_, i) => ({
        sourcedPostingId: `id-${i}`,
      })),
    },
  },
  'EmployerJob.seats': {},
  'EmployerJobSeatsConnection.seats': {},
  'JobPostStatus.surfaceStatuses': {},
  'PatchEmployerPayload.errors': {},
};

/** The length of the list `coordinate`'s own resolver answers. */
function listLength(coordinate: string, parent: unknown, within: object = jobSyncContext): Probe {
  return async (args) => {
    const list = await resolverOf(coordinate)(parent, args, within, NO_INFO);
    return [(list as unknown[]).length];
  };
}

const PROBES: Record<string, Probe> = {
  'Query.findVirtualInterviewEvents': (args) =>
    probe('Query.findVirtualInterviewEvents', {})({ ...args, input: {} }),
  'Query.virtualInterviewEvents': async (args) => {
    const count = (args.ids as number | undefined) ?? 1;
    const ids = Array.from({ length: count }, (_, i) => `event-${i % 3}`);
    return probe('Query.virtualInterviewEvents', {})({ input: { ids } });
  },
  'VirtualInterviewEvent.interviewersConnection': probe(
    'VirtualInterviewEvent.interviewersConnection',
  ),
  'VirtualInterviewEvent.intervieweesConnection': probe(
    'VirtualInterviewEvent.intervieweesConnection',
  ),
  'VirtualInterviewInterviewee.interviewRecordsConnection': probe(
    'VirtualInterviewInterviewee.interviewRecordsConnection',
  ),
  'VirtualInterviewRecord.interviewOutcomesConnection': probe(
    'VirtualInterviewRecord.interviewOutcomesConnection',
  ),
  'Query.webhookEndpoints': probe('Query.webhookEndpoints', {}, webhooksContext),
  'WebhookEndpoint.deliveriesConnection': probe(
    'WebhookEndpoint.deliveriesConnection',
    { id: 'endpoint-1' },
    webhooksContext,
  ),
  'Query.partnerDispositions': probe('Query.partnerDispositions', {}, dispositionsContext),
  'SendPartnerDispositionPayload.failedDispositions': async () => {
    const payload = await resolverOf('PartnerDispositionMutation.send')(
      {},
      { input: { dispositions: failingDispositions } },
      dispositionsContext,
      NO_INFO,
    );
    const failed = await resolverOf('SendPartnerDispositionPayload.failedDispositions')(
      payload,
      {},
      dispositionsContext,
      NO_INFO,
    );
    return [(failed as unknown[]).length];
  },
  'Query.jobSearch': probe('Query.jobSearch', {}, jobSearchContext),
  'JobSearchJob.attributes': async () => {
    // Every job type named many times over: each attribute is listed once.
    const jobTypes = Array.from(
      { length: STORED },
      (_, i) => ['Full-time', 'CF3CP', 'Remote'][i % 3],
    );
    const attributes = await resolverOf('JobSearchJob.attributes')(
      { job_types: JSON.stringify(jobTypes) },
      {},
      jobSearchContext,
      NO_INFO,
    );
    assert.ok((attributes as unknown[]).length <= MOST_ATTRIBUTES);
    return [(attributes as unknown[]).length];
  },
  'Query.nodes': listLength('Query.nodes', {}),
  'Mutation.createSourcedJobPostings': probe(
    'Mutation.createSourcedJobPostings',
    {},
    jobSyncContext,
  ),
  'JobsIngestMutations.createSourcedJobPostings': probe(
    'JobsIngestMutations.createSourcedJobPostings',
    {},
    jobSyncContext,
  ),
  'JobsIngestMutations.expireSourcedJobsBySourcedPostingId': probe(
    'JobsIngestMutations.expireSourcedJobsBySourcedPostingId',
    {},
    jobSyncContext,
  ),
  'EmployerJob.seats': listLength('EmployerJob.seats', { id: 'ej-1', posting: somePosting }),
  'EmployerJobSeatsConnection.seats': listLength('EmployerJobSeatsConnection.seats', {
    posting: somePosting,
  }),
  'JobPostStatus.surfaceStatuses': async () => {
    const surfaceContexts = Array.from({ length: MAX_SURFACES }, (_, i) => ({
      placementId: `surface-${i}`,
    }));
    const status = await resolverOf('JobPost.status')(
      somePosting,
      { input: { surfaceContexts } },
      jobSyncContext,
      NO_INFO,
    );
    return listLength('JobPostStatus.surfaceStatuses', status)({});
  },
  'PatchEmployerPayload.errors': listLength('PatchEmployerPayload.errors', {
    employerKey: 'k',
    changed: true,
  }),
  'WebhookDelivery.attempts': async () => {
    const attempts = await resolverOf('WebhookDelivery.attempts')(
      storedDelivery,
      {},
      webhooksContext,
      NO_INFO,
    );
    return [(attempts as unknown[]).length];
  },
};

/** Webhook and disposition pages take 1 to 100 items (0 is refused). */
const WEBHOOK_PAGES = new Set([
  'Query.webhookEndpoints',
  'WebhookEndpoint.deliveriesConnection',
  'Query.partnerDispositions',
]);

/** The arguments each sizing field is tried with: left out, small, and the largest accepted. */
const ARGUMENTS: Array<Record<string, unknown>> = [{}, { first: 0 }, { first: 3 }, { first: 100 }];

/** jobSearch pages by `limit`, 1 to 100. */
const JOB_SEARCH_ARGUMENTS: Array<Record<string, unknown>> = [{}, { limit: 3 }, { limit: 100 }];

describe('every list field of the schema has a true bound', () => {
  it('is sized by @listSize, on itself or on every field that returns its parent', () => {
    const lists = listFields();
    assert.ok(lists.length >= 10, `found only ${lists.join(', ')}`);
    const unsized = lists.flatMap(unsizedThrough);
    assert.deepEqual(unsized, [], 'lists without @listSize, which the cost model would guess at');
    assert.deepEqual(Object.keys(PROBES).sort(), sizingFields().sort());
  });

  for (const [field, probeOf] of Object.entries(PROBES)) {
    it(`${field}: no list holds more than the cost model assumes, whatever is stored`, async () => {
      const tried = JOB_SYNC_ARGUMENTS[field]
        ? [JOB_SYNC_ARGUMENTS[field]]
        : field === 'Query.virtualInterviewEvents'
          ? [1, 7, MAX_EVENT_IDS].map((ids) => ({ ids }))
          : WEBHOOK_PAGES.has(field)
            ? ARGUMENTS.filter(({ first }) => first !== 0)
            : field === 'Query.jobSearch'
              ? JOB_SEARCH_ARGUMENTS
              : ARGUMENTS;
      for (const args of tried) {
        const assumed = assumedItems(
          field,
          field === 'Query.virtualInterviewEvents' ? { input: { ids: Array(args.ids) } } : args,
        );
        const lengths = await probeOf(args);
        assert.ok(lengths.length > 0);
        for (const length of lengths) {
          assert.ok(
            length <= assumed,
            `${field}(${JSON.stringify(args)}) answered a list of ${length}; the cost model assumes ${assumed}`,
          );
        }
      }
    });
  }

  it('refuses what the cost model clamps: first above 100, more than 100 ids', async () => {
    await assert.rejects(PROBES['Query.findVirtualInterviewEvents']!({ first: 101 }), /first/);
    await assert.rejects(
      PROBES['VirtualInterviewInterviewee.interviewRecordsConnection']!({ first: 101 }),
      /first/,
    );
    await assert.rejects(
      PROBES['Query.virtualInterviewEvents']!({ ids: MAX_EVENT_IDS + 1 }),
      /ids/,
    );
    await assert.rejects(PROBES['Query.jobSearch']!({ limit: 101 }), /limit/);
    await assert.rejects(PROBES['Query.jobSearch']!({ limit: 0 }), /limit/);
    for (const field of WEBHOOK_PAGES) {
      await assert.rejects(PROBES[field]!({ first: 101 }), /first/);
      await assert.rejects(PROBES[field]!({ first: 0 }), /first/);
    }
    await assert.rejects(
      PROBES['Query.nodes']!({ ids: Array(MAX_NODE_IDS + 1).fill('id') }),
      /ids must hold 1 to 100 ids/,
    );
    await assert.rejects(
      PROBES['Mutation.createSourcedJobPostings']!({
        input: { jobPostings: refusedPostings(MAX_POSTINGS_PER_REQUEST + 1) },
      }),
      /at most 100 are allowed per request/,
    );
    await assert.rejects(
      PROBES['JobsIngestMutations.expireSourcedJobsBySourcedPostingId']!({
        input: { jobs: Array(MAX_EXPIRIES_PER_REQUEST + 1).fill({ sourcedPostingId: 'x' }) },
      }),
      /at most 100 are allowed per request/,
    );
    await assert.rejects(
      async () =>
        resolverOf('JobPost.status')(
          somePosting,
          { input: { surfaceContexts: Array(MAX_SURFACES + 1).fill({ placementId: 'x' }) } },
          jobSyncContext,
          NO_INFO,
        ),
      /more than 10 surfaces/,
    );
  });

  it('writes each domain cap into the schema, where clients read it', () => {
    assert.deepEqual(NESTED_LIST_BOUNDS, {
      interviewersConnection: MAX_INVITED_INTERVIEWERS + 1,
      intervieweesConnection: 1,
      interviewRecordsConnection: MAX_ADMISSIONS_PER_INTERVIEWEE,
      interviewOutcomesConnection: MAX_INVITED_INTERVIEWERS + 1,
    });
    for (const [list, bound] of Object.entries(NESTED_LIST_BOUNDS)) {
      const coordinate = sizingFields().find((key) => key.endsWith(`.${list}`));
      assert.ok(coordinate, `the cost model does not size ${list}`);
      assert.equal(
        directives.listSizeOf(coordinate)!.assumedSize,
        bound,
        `${coordinate}: @listSize(assumedSize:) is not the list's bound`,
      );
      const [typeName, fieldName] = coordinate.split('.');
      const type = schema.getType(typeName!);
      assert.ok(isObjectType(type));
      const first = type.getFields()[fieldName!]!.args.find((arg) => arg.name === 'first');
      assert.match(
        first?.description ?? '',
        new RegExp(`at most ${bound}\\.`),
        `${coordinate}(first) does not state its bound of ${bound}`,
      );
    }
    const records = schema.getType('VirtualInterviewInterviewee');
    assert.ok(isObjectType(records));
    assert.match(
      records.getFields().interviewRecordsConnection!.description ?? '',
      new RegExp(`admitted at most ${MAX_ADMISSIONS_PER_INTERVIEWEE} times in one event`),
    );
  });
});
