import { postGraphQL, type GraphQLBody } from './graphql-client.js';

const EVENT_FIELDS = `
  id title status interviewerLobbyUrl
  interviewersConnection { totalCount interviewers { email } }
  intervieweesConnection { interviewees { email status intervieweeLobbyUrl } }
`;

const CREATE = `mutation($input: CreateVirtualInterviewEventInput!) {
  createVirtualInterviewEvent(input: $input) { event { ${EVENT_FIELDS} } } }`;
const UPDATE = `mutation($input: UpdateVirtualInterviewEventInput!) {
  updateVirtualInterviewEvent(input: $input) { event { ${EVENT_FIELDS} } } }`;
const CANCEL = `mutation($id: ID!) {
  cancelVirtualInterviewEvent(input: { id: $id }) { event { ${EVENT_FIELDS} } } }`;
const READ = `query($ids: [ID!]!) {
  virtualInterviewEvents(input: { ids: $ids }) { events { ${EVENT_FIELDS} } } }`;

/** An event as the API reports it, with the fields these tests check. */
export interface ReportedEvent {
  id: string;
  title: string;
  status: string;
  interviewerLobbyUrl: string;
  interviewersConnection: { totalCount: number; interviewers: Array<{ email: string }> };
  intervieweesConnection: {
    interviewees: Array<{ email: string; status: string; intervieweeLobbyUrl: string }>;
  };
}

export interface EventDraft {
  title?: string;
  interviewers: string[];
  interviewee?: { name: string; email: string };
}

/** A creation input for an event tomorrow, an hour long. */
export function eventInput(draft: EventDraft) {
  const start = Date.now() + 24 * 3600_000;
  return {
    title: draft.title ?? 'Reliability round',
    startTime: new Date(start).toISOString(),
    endTime: new Date(start + 3600_000).toISOString(),
    timezone: 'Europe/Berlin',
    interviewers: draft.interviewers.map((email) => ({ email })),
    ...(draft.interviewee && { interviewee: draft.interviewee }),
    requestMetadata: { atsName: 'Reliability suite' },
  };
}

/** The Interview API's mutations and reads, as one bearer of an employer-scoped token. */
export class InterviewRequests {
  constructor(
    private readonly baseUrl: string,
    private readonly accessToken: string,
  ) {}

  create(draft: EventDraft): Promise<GraphQLBody> {
    return this.call(CREATE, { input: eventInput(draft) });
  }

  addInterviewers(id: string, emails: string[]): Promise<GraphQLBody> {
    return this.call(UPDATE, {
      input: { addInterviewers: { id, interviewers: emails.map((email) => ({ email })) } },
    });
  }

  setTitle(id: string, title: string): Promise<GraphQLBody> {
    return this.call(UPDATE, { input: { setTitle: { id, title } } });
  }

  cancel(id: string): Promise<GraphQLBody> {
    return this.call(CANCEL, { id });
  }

  /** The events with these ids, in the order asked (null where there is none). */
  async read(ids: string[]): Promise<Array<ReportedEvent | null>> {
    const body = await this.call(READ, { ids });
    if (body.errors) throw new Error(`reading events failed: ${JSON.stringify(body.errors)}`);
    return body.data.virtualInterviewEvents.events;
  }

  private async call(query: string, variables: object): Promise<GraphQLBody> {
    return (await postGraphQL(this.baseUrl, this.accessToken, { query, variables })).body;
  }
}

/** The event a mutation answered with, or undefined when it answered with errors. */
export function mutatedEvent(body: GraphQLBody): ReportedEvent | undefined {
  if (body.errors?.length || !body.data) return undefined;
  const payload = Object.values(body.data)[0] as { event: ReportedEvent } | null;
  return payload?.event;
}

/** The error code of a refused mutation (`BAD_USER_INPUT`, `NOT_FOUND`, …), or 'ok'. */
export function outcomeCode(body: GraphQLBody): string {
  return body.errors?.length ? (body.errors[0]!.extensions.code ?? 'NO_CODE') : 'ok';
}
