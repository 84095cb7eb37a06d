import { postGraphQL, type GraphQLBody } from './graphql-client.js';
import { CREATE, EXPIRE, PATCH_EMPLOYER, STATUS } from './job-postings.js';
import { isConnectionFailure } from './write-load.js';

/** `createSourcedJobPostings` at the root of Mutation, as older integrations call it. */
export const CREATE_AT_ROOT = `mutation CreateAtRoot($input: CreateSourcedJobPostingsInput) {
  createSourcedJobPostings(input: $input) {
    results { jobPosting { sourcedPostingId employerJobId } }
  }
}`;

export const SEND_DISPOSITIONS = `mutation Send($input: SendPartnerDispositionInput!) {
  partnerDisposition { send(input: $input) { numberGoodDispositions } }
}`;

const READ_DISPOSITIONS = `query Read($first: Int, $after: String) {
  partnerDispositions(first: $first, after: $after) {
    edges {
      node {
        identifiedBy { indeedApplyID }
        dispositionStatus
        rawDispositionStatus
        statusChangeDateTime
      }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

/**
 * What became of one request: `data` when the service answered it in full, `unanswered` when no
 * answer came (its worker died), `unavailable` for a 503 (nothing was written, the client may
 * retry). Any other answer is a fault the test reports: a 500, an INTERNAL_SERVER_ERROR, or an
 * error the request did not deserve.
 */
export type Answer =
  | { kind: 'data'; data: any }
  | { kind: 'unanswered' }
  | { kind: 'unavailable'; detail: string }
  | { kind: 'fault'; detail: string };

/** A posting as createSourcedJobPostings answers it. */
export interface AnsweredPosting {
  sourcedPostingId: string;
  employerJobId: string;
}

/**
 * The Jobs APIs' operations as one partner client sends them (one access token), each answer
 * classified. It never throws for what the service answered or for a dropped connection.
 */
export class JobsApisClient {
  constructor(
    private readonly url: string,
    private readonly token: string,
  ) {}

  /** Creates or upserts `postings`; the answer's data is their results, in input order. */
  async createPostings(postings: object[], atRoot = false): Promise<Answer> {
    const answer = await this.send(atRoot ? CREATE_AT_ROOT : CREATE, {
      input: { jobPostings: postings },
    });
    if (answer.kind !== 'data') return answer;
    const payload = atRoot ? answer.data.createSourcedJobPostings : answer.data.jobsIngest;
    const results = (atRoot ? payload : payload?.createSourcedJobPostings)?.results as
      Array<{ jobPosting: AnsweredPosting | null }> | undefined;
    if (results?.length !== postings.length || results.some((result) => !result.jobPosting)) {
      return { kind: 'fault', detail: `create answered ${JSON.stringify(answer.data)}` };
    }
    return { kind: 'data', data: results.map((result) => result.jobPosting) };
  }

  /** Expires postings by id; the answer's data is one tracking key per id. */
  async expirePostings(ids: string[]): Promise<Answer> {
    const answer = await this.send(EXPIRE, {
      input: { jobs: ids.map((sourcedPostingId) => ({ sourcedPostingId })) },
    });
    if (answer.kind !== 'data') return answer;
    const results = answer.data.jobsIngest?.expireSourcedJobsBySourcedPostingId?.results as
      Array<{ trackingKey: string | null }> | undefined;
    if (results?.length !== ids.length || results.some((result) => !result.trackingKey)) {
      return { kind: 'fault', detail: `expiry answered ${JSON.stringify(answer.data)}` };
    }
    return { kind: 'data', data: results.map((result) => result.trackingKey) };
  }

  async patchEmployer(input: object): Promise<Answer> {
    const answer = await this.send(PATCH_EMPLOYER, { input });
    if (answer.kind !== 'data') return answer;
    if (answer.data.patchEmployer?.responseCode !== 'OK') {
      return { kind: 'fault', detail: `patchEmployer answered ${JSON.stringify(answer.data)}` };
    }
    return { kind: 'data', data: answer.data.patchEmployer };
  }

  /** Sends dispositions; the answer's data is numberGoodDispositions. */
  async sendDispositions(dispositions: object[]): Promise<Answer> {
    const answer = await this.send(SEND_DISPOSITIONS, { input: { dispositions } });
    if (answer.kind !== 'data') return answer;
    const good = answer.data.partnerDisposition?.send?.numberGoodDispositions;
    if (typeof good !== 'number') {
      return { kind: 'fault', detail: `send answered ${JSON.stringify(answer.data)}` };
    }
    return { kind: 'data', data: good };
  }

  /** Every disposition of the caller, page by page (100 a page). */
  async allDispositions(): Promise<any[]> {
    const nodes: any[] = [];
    let after: string | undefined;
    for (;;) {
      const answer = await this.send(READ_DISPOSITIONS, { first: 100, after });
      if (answer.kind !== 'data')
        throw new Error(`reading dispositions: ${JSON.stringify(answer)}`);
      const page = answer.data.partnerDispositions;
      nodes.push(...page.edges.map((edge: { node: unknown }) => edge.node));
      if (!page.pageInfo.hasNextPage) return nodes;
      after = page.pageInfo.endCursor;
    }
  }

  /** A posting read through `node(id)` as an EmployerJob (null when it names nothing). */
  async employerJob(id: string): Promise<any> {
    const answer = await this.send(STATUS, { id });
    if (answer.kind !== 'data') throw new Error(`reading ${id}: ${JSON.stringify(answer)}`);
    return answer.data.node;
  }

  private async send(query: string, variables: object): Promise<Answer> {
    let answer: { status: number; body: GraphQLBody };
    try {
      answer = await postGraphQL(this.url, this.token, { query, variables });
    } catch (error) {
      if (isConnectionFailure(error)) return { kind: 'unanswered' };
      throw error;
    }
    const { status, body } = answer;
    if (status === 503) return { kind: 'unavailable', detail: JSON.stringify(body.errors ?? body) };
    if (status !== 200 || body.errors !== undefined) {
      return { kind: 'fault', detail: `${status} ${JSON.stringify(body.errors ?? body)}` };
    }
    return { kind: 'data', data: body.data };
  }
}
