import assert from 'node:assert/strict';
import type { GraphQLField } from 'graphql';
import { ManualClock } from '../../src/clock.js';
import { DISPOSITION_STATUSES, RATIONALES } from '../../src/disposition-sync/vocabulary.js';
import type { Principal } from '../../src/oauth/principal.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL, type GraphQLBody } from '../support/graphql-client.js';
import { employerAppPrincipal, insertTenant } from '../support/interview-fixtures.js';
import {
  assertConformsToSchema,
  reachableFields,
  selectEverything,
  wireCheckingSchema,
} from '../support/schema-conformance.js';
import { startTestService } from '../support/service.js';
import {
  disposition,
  distinctDispositions,
  employerJobId,
  enableDispositionSync,
} from './fixtures.js';

const MESSAGES = {
  identifier:
    'PartnerDispositionIdentifierInput must specify one of indeedApplyID, ittk, universalApplyId, or alternateIdentifier',
  job: 'JobIdentifierInput must specify one of indeedJobKey, employerJobId, or atsApplicationIdentifier',
  jobSeeker: 'JobSeekerIdentifierInput must specify either indeedJobSeekerKey or emailAddress',
  statusChangeDateTime: 'Unable to parse statusChangeDateTime',
};

const NOW = Date.UTC(2026, 10, 1, 9, 0);
const schema = wireCheckingSchema();

/** The operation with every field reachable from its root field selected. */
function everything(root: 'Query' | 'Mutation', name: string, head: string, args: string) {
  const type = root === 'Query' ? schema.getQueryType() : schema.getMutationType();
  const field = type!.getFields()[name] as GraphQLField<unknown, unknown>;
  const { selection, covered } = selectEverything(field);
  assert.deepEqual(
    [...reachableFields(field)].filter((f) => !covered.has(f)),
    [],
  );
  return `${head} { ${name}${args} ${selection} }`;
}

const SEND_ALL = everything(
  'Mutation',
  'partnerDisposition',
  'mutation Send($input: SendPartnerDispositionInput!)',
  '',
).replace('send ', 'send(input: $input) ');
const READ_ALL = everything(
  'Query',
  'partnerDispositions',
  'query Read($first: Int, $after: String)',
  '(first: $first, after: $after)',
);

describeEachDialect('Disposition Sync: the contract of partnerDisposition.send', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  const principals: Record<string, Principal> = {};

  before(async () => {
    const { db } = database();
    const tenant = await insertTenant(db, 'dispositions');
    const other = await insertTenant(db, 'elsewhere');
    await enableDispositionSync(db, tenant.appId);
    await enableDispositionSync(db, other.appId);
    principals.employer = employerAppPrincipal(tenant);
    principals.app = { ...employerAppPrincipal(tenant), employerId: null };
    principals.other = employerAppPrincipal(other);
    service = await startTestService(database(), {
      clock: new ManualClock(NOW),
      authenticate: async (token) => principals[token] ?? null,
    });
  });
  after(async () => {
    await service?.stop();
  });

  async function call(query: string, variables: object, token = 'employer'): Promise<GraphQLBody> {
    const { status, body } = await postGraphQL(service.url, token, { query, variables });
    assert.equal(status, 200, JSON.stringify(body));
    return body;
  }

  async function send(dispositions: object[], token = 'employer') {
    const body = await call(SEND_ALL, { input: { dispositions } }, token);
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    await assertConformsToSchema(SEND_ALL, { input: { dispositions } }, body.data);
    return body.data.partnerDisposition.send;
  }

  /** The request's one error: its message, code and validatedPath; nothing stored. */
  async function refused(dispositions: object[]) {
    const before = await storedCount();
    const body = await call(SEND_ALL, { input: { dispositions } });
    assert.deepEqual(body.data, { partnerDisposition: { send: null } });
    assert.equal(body.errors?.length, 1);
    const [error] = body.errors as any[];
    assert.equal(error.extensions.code, 'BAD_USER_INPUT');
    assert.deepEqual(error.path, ['partnerDisposition', 'send']);
    assert.equal(await storedCount(), before, 'a refused request stores nothing');
    return {
      message: error.message as string,
      path: error.extensions.classification.validatedPath as unknown[],
    };
  }

  async function storedCount(): Promise<number> {
    const rows = await database().db('partner_dispositions').count({ count: '*' });
    return Number(rows[0]!.count);
  }

  async function read(variables: object = {}, token = 'employer') {
    const body = await call(READ_ALL, variables, token);
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    await assertConformsToSchema(READ_ALL, variables, body.data);
    return body.data.partnerDispositions;
  }

  it('stores every documented status (and DROPPED_OTHER) and reads each back as sent', async () => {
    assert.equal(DISPOSITION_STATUSES.length, 24);
    const statusEnum = schema.getType('IndeedDispositionStatus') as any;
    assert.deepEqual(
      statusEnum.getValues().map((value: { name: string }) => value.name),
      DISPOSITION_STATUSES,
    );
    const sent = DISPOSITION_STATUSES.map((status, index) =>
      disposition({
        identifiedBy: { ittk: `ittk-status-${index}` },
        dispositionStatus: status,
        rawDispositionStatus: `ATS ${status}`,
        rawDispositionDetails: index === 0 ? 'Line one\nline two' : null,
        applicationSourceName: index === 1 ? 'Career site' : null,
        statusChangeDateTime: `2025-02-0${1 + Math.floor(index / 10)}T1${index % 10}:00:00+02:00`,
      }),
    );
    assert.deepEqual(await send(sent), { numberGoodDispositions: 24, failedDispositions: [] });

    const page = await read({ first: 24 });
    assert.equal(page.edges.length, 24);
    const newestFirst = [...sent].reverse();
    page.edges.forEach(({ node }: any, index: number) => {
      const expected = newestFirst[index] as any;
      assert.equal(node.dispositionStatus, expected.dispositionStatus);
      assert.equal(node.rawDispositionStatus, expected.rawDispositionStatus);
      assert.equal(node.rawDispositionDetails, expected.rawDispositionDetails);
      assert.equal(node.applicationSourceName, expected.applicationSourceName);
      assert.equal(node.atsName, 'Acme ATS');
      assert.equal(node.statusChangeDateTime, expected.statusChangeDateTime);
      assert.equal(node.receivedAt, new Date(NOW).toISOString().replace('.000Z', 'Z'));
      assert.deepEqual(node.identifiedBy, {
        indeedApplyID: null,
        ittk: expected.identifiedBy.ittk,
        universalApplyId: null,
        alternateIdentifier: null,
      });
    });
  });

  it('takes at most 25 dispositions per request', async () => {
    const answer = await send(distinctDispositions(25, 'limit'));
    assert.equal(answer.numberGoodDispositions, 25);
    const { message, path } = await refused(distinctDispositions(26, 'over'));
    assert.equal(
      message,
      'dispositions holds 26 dispositions; at most 25 are accepted per request',
    );
    assert.deepEqual(path, ['partnerDisposition', 'send', 'input', 'dispositions']);
    assert.deepEqual(await send([]), { numberGoodDispositions: 0, failedDispositions: [] });
  });

  it('needs exactly one of the four identifiers, with the documented message', async () => {
    const cases = [
      {},
      { indeedApplyID: 'a', ittk: 'b' },
      { universalApplyId: 'u', alternateIdentifier: alternate() },
      { indeedApplyID: '  ' },
    ];
    for (const identifiedBy of cases) {
      const dispositions = [
        ...distinctDispositions(2, 'before-bad'),
        disposition({ identifiedBy, statusChangeDateTime: '2025-02-01T00:00:00Z' }),
      ];
      const { message, path } = await refused(dispositions);
      assert.equal(message, MESSAGES.identifier, JSON.stringify(identifiedBy));
      assert.deepEqual(path.slice(3), ['dispositions', 2, 'identifiedBy']);
    }
    for (const identifiedBy of [
      { indeedApplyID: 'only-apply' },
      { ittk: 'only-ittk' },
      { universalApplyId: 'only-universal' },
      { alternateIdentifier: alternate() },
    ]) {
      const answer = await send([disposition({ identifiedBy })]);
      assert.equal(answer.numberGoodDispositions, 1, JSON.stringify(identifiedBy));
    }
  });

  it('needs a job identifier and a job seeker identifier inside the alternate one', async () => {
    const noJob = await refused([
      disposition({ identifiedBy: { alternateIdentifier: alternate({ jobIdentifier: {} }) } }),
    ]);
    assert.equal(noJob.message, MESSAGES.job);
    assert.deepEqual(noJob.path.slice(3), [
      'dispositions',
      0,
      'identifiedBy',
      'alternateIdentifier',
      'jobIdentifier',
    ]);
    // An ATS identifier with blank required parts names no job either.
    const blankAts = await refused([
      disposition({
        identifiedBy: {
          alternateIdentifier: alternate({
            jobIdentifier: { atsApplicationIdentifier: { companyName: ' ', requisitionId: 'r' } },
          }),
        },
      }),
    ]);
    assert.equal(blankAts.message, MESSAGES.job);

    const noSeeker = await refused([
      disposition({
        identifiedBy: { alternateIdentifier: alternate({ jobSeekerIdentifier: {} }) },
      }),
    ]);
    assert.equal(noSeeker.message, MESSAGES.jobSeeker);
    assert.deepEqual(noSeeker.path.at(-1), 'jobSeekerIdentifier');
  });

  it('reads the job by precedence: jobKey, then employerJobId, then the ATS identifier', async () => {
    const ats = { companyName: 'Acme', requisitionId: 'REQ-1', applicationId: 'APP-9' };
    const at = (minute: number) => `2025-03-01T10:0${minute}:00Z`;
    const sent = [
      // The jobKey counts: the employerJobId beside it is only echoed, not checked.
      job({ indeedJobKey: 'jk-1', employerJobId: 'not base64 at all' }, at(0)),
      // The employerJobId counts over the ATS identifier, and is checked.
      job({ employerJobId: 'bm90IGFuIElSSQ==', atsApplicationIdentifier: ats }, at(1)),
      job({ employerJobId: employerJobId('ej-1'), atsApplicationIdentifier: ats }, at(2)),
      job({ atsApplicationIdentifier: ats }, at(3)),
    ];
    const answer = await send(sent);
    assert.equal(answer.numberGoodDispositions, 3);
    assert.deepEqual(answer.failedDispositions, [
      {
        identifiedBy: {
          indeedApplyID: null,
          ittk: null,
          universalApplyId: null,
          alternateIdentifier: {
            jobIdentifier: {
              indeedJobKey: null,
              employerJobId: 'bm90IGFuIElSSQ==',
              atsApplicationIdentifier: ats,
            },
            jobSeekerIdentifier: { indeedJobSeekerKey: 'seeker-1', emailAddress: null },
          },
        },
        rationale: RATIONALES.employerJobId,
      },
    ]);
    const stored = (await read({ first: 3 })).edges.map(({ node }: any) => node);
    assert.deepEqual(
      stored.map((node: any) => node.identifiedBy.alternateIdentifier.jobIdentifier),
      [
        { indeedJobKey: null, employerJobId: null, atsApplicationIdentifier: ats },
        { indeedJobKey: null, employerJobId: employerJobId('ej-1'), atsApplicationIdentifier: ats },
        {
          indeedJobKey: 'jk-1',
          employerJobId: 'not base64 at all',
          atsApplicationIdentifier: null,
        },
      ],
    );
    // The identifier that counts names the application: the same jobKey with another
    // employerJobId beside it is the same disposition, stored once.
    const before = await storedCount();
    const again = await send([
      job({ indeedJobKey: 'jk-1', employerJobId: employerJobId('x') }, at(0)),
    ]);
    assert.equal(again.numberGoodDispositions, 1);
    assert.equal(await storedCount(), before);
  });

  it('refuses a statusChangeDateTime it cannot parse, with the documented message', async () => {
    for (const value of [
      'yesterday',
      '2025-02-30T12:00:00Z',
      '2025-01-31T12:00:00',
      '2025-01-31',
      '',
    ]) {
      const { message, path } = await refused([
        disposition({ statusChangeDateTime: '2025-01-01T00:00:00Z' }),
        disposition({ identifiedBy: { ittk: 'late' }, statusChangeDateTime: value }),
      ]);
      assert.equal(message, MESSAGES.statusChangeDateTime, value);
      assert.deepEqual(path.slice(3), ['dispositions', 1, 'statusChangeDateTime']);
    }
  });

  it('refuses a request that is not sorted oldest first; equal instants are sorted', async () => {
    const [first, second] = distinctDispositions(2, 'unsorted');
    const { message, path } = await refused([second!, first!]);
    assert.equal(
      message,
      'dispositions must be sorted by statusChangeDateTime, oldest first: dispositions[1] is ' +
        'older than dispositions[0]',
    );
    assert.deepEqual(path.slice(3), ['dispositions', 1, 'statusChangeDateTime']);
    // Offsets count: 13:00+02:00 is 11:00Z, before 12:00Z.
    await refused([
      disposition({ statusChangeDateTime: '2025-01-31T12:00:00Z' }),
      disposition({
        identifiedBy: { ittk: 'x' },
        statusChangeDateTime: '2025-01-31T13:00:00+02:00',
      }),
    ]);
    const same = await send([
      disposition({
        identifiedBy: { ittk: 'same-1' },
        statusChangeDateTime: '2025-01-31T12:00:00Z',
      }),
      disposition({
        identifiedBy: { ittk: 'same-2' },
        statusChangeDateTime: '2025-01-31T14:00:00+02:00',
      }),
    ]);
    assert.equal(same.numberGoodDispositions, 2);
  });

  it('refuses text past its length or with control characters, naming the field', async () => {
    const long = await refused([disposition({ atsName: 'A'.repeat(201) })]);
    assert.equal(long.message, 'dispositions[0].atsName must be at most 200 characters');
    const details = await refused([disposition({ rawDispositionDetails: 'x'.repeat(2001) })]);
    assert.equal(
      details.message,
      'dispositions[0].rawDispositionDetails must be at most 2000 characters',
    );
    const nul = await refused([disposition({ identifiedBy: { ittk: 'a\u0000b' } })]);
    assert.equal(
      nul.message,
      'dispositions[0].identifiedBy.ittk must not contain control characters',
    );
  });

  it('fails single dispositions with a rationale, echoing their identifiers in input order', async () => {
    const before = await storedCount();
    const future = new Date(NOW + 6 * 60_000).toISOString();
    const sent = [
      disposition({ identifiedBy: { indeedApplyID: 'fail-blank-ats' }, atsName: ' ' }),
      disposition({ identifiedBy: { indeedApplyID: 'good-1' } }),
      disposition({
        identifiedBy: { indeedApplyID: 'fail-blank-status' },
        rawDispositionStatus: '',
      }),
      disposition({
        identifiedBy: { indeedApplyID: 'near-now' },
        statusChangeDateTime: new Date(NOW + 4 * 60_000).toISOString(),
      }),
      disposition({ identifiedBy: { indeedApplyID: 'fail-future' }, statusChangeDateTime: future }),
    ];
    const answer = await send(sent);
    assert.equal(answer.numberGoodDispositions, 2);
    assert.deepEqual(
      answer.failedDispositions.map((failed: any) => [
        failed.identifiedBy.indeedApplyID,
        failed.rationale,
      ]),
      [
        ['fail-blank-ats', RATIONALES.emptyAtsName],
        ['fail-blank-status', RATIONALES.emptyRawStatus],
        ['fail-future', RATIONALES.future],
      ],
    );
    assert.equal(await storedCount(), before + 2);
  });

  it('stores a disposition sent again once, and counts it as good each time', async () => {
    const sent = distinctDispositions(3, 'resent');
    const before = await storedCount();
    assert.equal((await send(sent)).numberGoodDispositions, 3);
    assert.equal((await send(sent)).numberGoodDispositions, 3);
    // Twice in one request: one row.
    assert.equal((await send([sent[0]!, sent[0]!])).numberGoodDispositions, 2);
    assert.equal(await storedCount(), before + 3);
    // Another status of the same application is another disposition.
    await send([{ ...sent[0]!, dispositionStatus: 'HIRED', rawDispositionStatus: 'Hired' }]);
    assert.equal(await storedCount(), before + 4);
  });

  it('pages the dispositions back, the latest change first, each once; bounds first and the cursor', async () => {
    const own = distinctDispositions(5, 'own-app');
    await send(own, 'app');
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const page: any = await read({ first: 2, after }, 'app');
      seen.push(...page.edges.map(({ node }: any) => node.identifiedBy.indeedApplyID));
      assert.equal(page.pageInfo.hasPreviousPage, false);
      if (!page.pageInfo.hasNextPage) break;
      after = page.pageInfo.endCursor;
    }
    // The app's own token sees what it sent without an employer, nothing of the employer's.
    assert.deepEqual(seen, own.map((d: any) => d.identifiedBy.indeedApplyID).reverse());
    // Another app sees none of it.
    assert.deepEqual((await read({}, 'other')).edges, []);
    const empty = await read({}, 'other');
    assert.deepEqual(empty.pageInfo, {
      hasNextPage: false,
      hasPreviousPage: false,
      startCursor: null,
      endCursor: null,
    });

    for (const variables of [{ first: 0 }, { first: 101 }, { after: 'bm9wZQ' }]) {
      const body = await call(READ_ALL, variables);
      assert.deepEqual(body.data, { partnerDispositions: null });
      assert.equal(body.errors?.[0]?.extensions.code, 'BAD_USER_INPUT', JSON.stringify(variables));
    }
  });

  function alternate(fields: Record<string, unknown> = {}) {
    return {
      jobIdentifier: { indeedJobKey: 'jk-alt' },
      jobSeekerIdentifier: { indeedJobSeekerKey: 'seeker-1' },
      ...fields,
    };
  }

  function job(jobIdentifier: object, statusChangeDateTime: string) {
    return disposition({
      identifiedBy: { alternateIdentifier: alternate({ jobIdentifier }) },
      statusChangeDateTime,
    });
  }
});
