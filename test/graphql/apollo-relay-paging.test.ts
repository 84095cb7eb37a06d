import assert from 'node:assert/strict';
import { ApolloClient, CombinedGraphQLErrors, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { relayStylePagination } from '@apollo/client/utilities';
import { filter, firstValueFrom } from 'rxjs';
import { describeEachDialect } from '../support/databases.js';
import { employerAppPrincipal, insertTenant } from '../support/interview-fixtures.js';
import { startTestService } from '../support/service.js';
import { postGraphQL } from '../support/graphql-client.js';

const INTERVIEWER_EMAILS = ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com'];

const CREATE = /* GraphQL */ `
  mutation ($input: CreateVirtualInterviewEventInput!) {
    createVirtualInterviewEvent(input: $input) {
      event {
        id
        interviewersConnection {
          interviewers {
            id
            email
          }
        }
      }
    }
  }
`;

/** What a Relay-style app asks for: one page of interviewers, then more with `fetchMore`. */
const INTERVIEWERS_PAGE = gql`
  query InterviewersPage($ids: [ID!]!, $first: Int, $after: String) {
    virtualInterviewEvents(input: { ids: $ids }) {
      events {
        id
        interviewersConnection(first: $first, after: $after) {
          totalCount
          pageInfo {
            hasNextPage
            endCursor
          }
          edges {
            cursor
            node {
              id
              email
            }
          }
        }
      }
    }
  }
`;

interface InterviewersPage {
  virtualInterviewEvents: {
    events: Array<{
      id: string;
      interviewersConnection: {
        totalCount: number;
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
        edges: Array<{ cursor: string; node: { id: string; email: string } }>;
      };
    }>;
  };
}

/** The interviewers' connection in an answer Apollo reports complete. */
function connectionOf(answer: { data?: unknown; dataState?: string }) {
  assert.equal(answer.dataState, 'complete');
  return (answer.data as InterviewersPage).virtualInterviewEvents.events[0]!.interviewersConnection;
}

describeEachDialect(
  'nested connections paged by Apollo Client (relayStylePagination)',
  (database) => {
    let service: Awaited<ReturnType<typeof startTestService>>;
    let eventId: string;
    let everyInterviewer: Array<{ id: string; email: string }>;

    before(async () => {
      const tenant = await insertTenant(database().db, 'apollo');
      const principal = employerAppPrincipal(tenant);
      service = await startTestService(database(), {
        authenticate: async (token) => (token === 'apollo' ? principal : null),
      });
      const created = await postGraphQL(service.url, 'apollo', {
        query: CREATE,
        variables: {
          input: {
            title: 'Paged interviewers',
            startTime: '2030-06-03T09:00:00Z',
            endTime: '2030-06-03T10:00:00Z',
            timezone: 'UTC',
            interviewers: INTERVIEWER_EMAILS.map((email) => ({ email })),
            interviewee: { name: 'Jane Doe', email: 'jane@example.com' },
            requestMetadata: { atsName: 'Apollo test' },
          },
        },
      });
      assert.equal(created.body.errors, undefined, JSON.stringify(created.body.errors));
      const event = created.body.data.createVirtualInterviewEvent.event;
      eventId = event.id;
      everyInterviewer = event.interviewersConnection.interviewers;
      assert.ok(everyInterviewer.length >= INTERVIEWER_EMAILS.length);
    });

    after(async () => {
      await service?.stop();
    });

    function apolloClient(): ApolloClient {
      return new ApolloClient({
        link: new HttpLink({
          uri: `${service.url}/graphql`,
          headers: { authorization: 'Bearer apollo' },
        }),
        cache: new InMemoryCache({
          typePolicies: {
            VirtualInterviewEvent: {
              fields: { interviewersConnection: relayStylePagination() },
            },
          },
        }),
      });
    }

    it('fetches page after page with fetchMore and merges them into the whole list', async () => {
      const client = apolloClient();
      const firstPage = { ids: [eventId], first: 2 };
      const observable = client.watchQuery<InterviewersPage>({
        query: INTERVIEWERS_PAGE,
        variables: firstPage,
      });
      // A watched query stays active while subscribed, as a component's query does.
      const watching = observable.subscribe(() => {});
      let connection = connectionOf(
        await firstValueFrom(observable.pipe(filter((answer) => !answer.loading))),
      );
      assert.equal(connection.edges.length, 2);
      assert.equal(connection.totalCount, everyInterviewer.length);

      let pages = 1;
      while (connection.pageInfo.hasNextPage) {
        await observable.fetchMore({ variables: { after: connection.pageInfo.endCursor } });
        // What the watching component renders next: the cache, with the pages merged.
        connection = connectionOf({
          dataState: 'complete',
          data: client.readQuery({ query: INTERVIEWERS_PAGE, variables: firstPage }),
        });
        pages += 1;
        assert.ok(pages <= everyInterviewer.length, 'paging ends');
      }

      assert.equal(pages, Math.ceil(everyInterviewer.length / 2));
      assert.deepEqual(
        connection.edges.map((edge) => ({ id: edge.node.id, email: edge.node.email })),
        everyInterviewer.map((interviewer) => ({ id: interviewer.id, email: interviewer.email })),
      );
      assert.equal(
        new Set(connection.edges.map((edge) => edge.cursor)).size,
        everyInterviewer.length,
      );
      watching.unsubscribe();
      client.stop();
    });

    it('answers a cursor Apollo did not get from the service with BAD_USER_INPUT', async () => {
      const client = apolloClient();
      const answer = await client.query<InterviewersPage>({
        query: INTERVIEWERS_PAGE,
        variables: { ids: [eventId], first: 2, after: 'not-a-cursor' },
        errorPolicy: 'all',
      });
      assert.ok(CombinedGraphQLErrors.is(answer.error), String(answer.error));
      const codes = answer.error.errors.map((error) => error.extensions?.code);
      assert.deepEqual(codes, ['BAD_USER_INPUT'], JSON.stringify(answer.error));
      client.stop();
    });
  },
);
