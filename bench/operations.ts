/**
 * The GraphQL operations the benchmark sends, written against the merged schema (schema/*.graphql;
 * checked by test/bench/operations.test.ts). Variables keep the query text fixed, so the gateway's document
 * cache sees one document per operation, as it would from a real partner app.
 */

const INTERVIEWERS = 'interviewersConnection { totalCount interviewers { id email name } }';

export const EVENTS_BY_ID = `query EventsById($ids: [ID!]!) {
  virtualInterviewEvents(input: { ids: $ids }) {
    events {
      id title status startTime endTime timezone mediaType
      ${INTERVIEWERS}
      intervieweesConnection {
        totalCount
        interviewees {
          id name email status intervieweeLobbyUrl
          job { ... on EmployerJob { id } ... on VirtualInterviewJobInfo { title location } }
        }
      }
    }
  }
}`;

export const FIND_EVENTS = `query FindEvents($first: Int, $after: String, $input: FindVirtualInterviewEventsInput!) {
  findVirtualInterviewEvents(first: $first, after: $after, input: $input) {
    totalCount
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    edges {
      cursor
      node {
        id title status startTime endTime timezone mediaType interviewerLobbyUrl
        ${INTERVIEWERS}
        intervieweesConnection { interviewees { id name status } }
      }
    }
  }
}`;

/** Only the cursor of a page, for walking to a deep page before measuring it. */
export const FIND_EVENTS_CURSOR = `query FindEventsCursor($first: Int, $after: String, $input: FindVirtualInterviewEventsInput!) {
  findVirtualInterviewEvents(first: $first, after: $after, input: $input) {
    pageInfo { hasNextPage endCursor }
  }
}`;

export const CREATE_EVENT = `mutation CreateEvent($input: CreateVirtualInterviewEventInput!) {
  createVirtualInterviewEvent(input: $input) {
    event { id status ${INTERVIEWERS} }
  }
}`;

export const TYPENAME = '{ __typename }';

/** A new event two weeks ahead with five invited interviewers and an interviewee. */
export function createEventInput(now: number): Record<string, unknown> {
  const start = new Date(now + 14 * 24 * 60 * 60 * 1000);
  start.setUTCMinutes(0, 0, 0);
  const end = new Date(start.getTime() + 45 * 60 * 1000);
  return {
    title: 'Bench interview',
    startTime: start.toISOString(),
    endTime: end.toISOString(),
    timezone: 'Europe/Berlin',
    interviewers: [1, 2, 3, 4, 5].map((index) => ({ email: `panel-${index}@example.com` })),
    interviewee: { name: 'Bench Candidate', email: 'candidate@example.com' },
    requestMetadata: { atsName: 'Bench ATS' },
  };
}

/** Job Sync's batch write in the platform's namespaced form; its answer names each posting. */
export const CREATE_SOURCED_POSTINGS = `mutation CreateSourcedPostings($input: CreateSourcedJobPostingsInput) {
  jobsIngest {
    createSourcedJobPostings(input: $input) {
      results { jobPosting { sourcedPostingId employerJobId } }
    }
  }
}`;
