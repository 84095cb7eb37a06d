import { randomUUID } from 'node:crypto';
import type {
  CreateVirtualInterviewEventInput,
  UpdateVirtualInterviewEventInput,
  VirtualInterviewIntervieweeInput,
} from '../../generated/graphql.js';
import type { AccountStore } from '../accounts/account-store.js';
import { EventChanges } from './event-changes.js';
import { InterviewNotices } from './interview-notices.js';
import type { Clock } from '../clock.js';
import { isForeignKeyViolation, isUniqueViolation } from '../db/errors.js';
import type { EventRow, IntervieweeRow, InterviewerRow } from '../db/rows.js';
import type { EventStatus } from './vocabulary.js';
import { NotFoundError, ValidationError } from '../errors.js';
import type { SecretBox } from '../security/secret-box.js';
import type { InterviewEventChange } from '../webhooks/event-types.js';
import { NO_WEBHOOKS, type WebhookOutbox } from '../webhooks/outbox.js';
import type { EventWriteStore } from './event-write-store.js';
import { settleEvent } from './lifecycle/settle.js';
import { eventTransition } from './lifecycle/state-machines.js';
import { mintLobbyToken } from './lobby-tokens.js';
import { isPossibleEventId, quotedEventId } from './rules/event-ids.js';
import { newInvitations } from './rules/interviewers.js';
import { checkLocale } from './rules/locales.js';
import { checkSchedule } from './rules/schedule.js';
import { optionalText, requiredText } from './rules/text.js';

/**
 * Who creates an event, and becomes its first interviewer: the signed-in user, or the owner of
 * an app acting for itself; and the app that does it.
 */
export interface EventCreator {
  userId: string;
  appId: string;
}

/**
 * The app, account or employer a token acts for no longer exists, though the token was
 * accepted moments ago: the caller is no longer who it was, not a caller with bad input.
 */
export class CreatorGoneError extends Error {
  constructor() {
    super('the app or account this access token acts for no longer exists');
    this.name = 'CreatorGoneError';
  }
}

const TITLE_MAX = 500;
const NAME_MAX = 200;
const JOB_TEXT_MAX = 500;
/** Statuses in which an event can no longer be changed by the API. */
const FROZEN: ReadonlySet<EventStatus> = new Set(['CANCELLED', 'ENDED', 'ARCHIVED']);
type UpdateVariant = Exclude<keyof UpdateVirtualInterviewEventInput, '__typename'>;
const UPDATE_VARIANTS: readonly UpdateVariant[] = [
  'reschedule',
  'addInterviewers',
  'addInterviewee',
  'setTitle',
  'setTimezone',
];

/**
 * The Interview API's writer: creates, updates (including adding interviewers and the
 * interviewee) and cancels interview events with every rule of DESIGN §5. Each mutation is one
 * transaction: it applies completely or not at all. Rules about status look at the status settled
 * by the clock: an event whose end time has passed is ENDED even before the sweeper stores it.
 */
export class EventWriter {
  constructor(
    private readonly events: EventWriteStore,
    private readonly accounts: AccountStore,
    private readonly lobbyTokenBox: SecretBox,
    private readonly clock: Clock,
    /** ARCHIVE_AFTER_DAYS, in milliseconds (see archiveDelayMs). */
    private readonly archiveAfterMs: number,
    private readonly changes: EventChanges = new EventChanges(),
    /** Hears of every committed change, in its transaction (DESIGN §8). */
    private readonly outbox: WebhookOutbox = NO_WEBHOOKS,
  ) {}

  async create(
    employerId: string,
    createdBy: EventCreator,
    input: CreateVirtualInterviewEventInput,
  ): Promise<EventRow> {
    checkSchedule(input.startTime, input.endTime);
    checkLocale(input.languageCode, input.countryCode);
    const title = requiredText(input.title, 'input.title', TITLE_MAX);
    const atsName = requiredText(
      input.requestMetadata.atsName,
      'input.requestMetadata.atsName',
      NAME_MAX,
    );
    const employerName = optionalText(
      input.requestMetadata.employerName,
      'input.requestMetadata.employerName',
      NAME_MAX,
    );
    const interviewee = input.interviewee
      ? intervieweeFields(input.interviewee, 'input.interviewee')
      : undefined;
    const creator = await this.accounts.findUserById(createdBy.userId);
    if (!creator) throw new CreatorGoneError();
    const creatorEmail = creator.email.toLowerCase();
    const invited = newInvitations(
      input.interviewers,
      new Set([creatorEmail]),
      0,
      'input.interviewers',
    );

    const now = this.clock.now();
    const event: EventRow = {
      id: randomUUID(),
      employer_id: employerId,
      created_by_app_id: createdBy.appId,
      created_by_user_id: creator.id,
      title,
      start_at: input.startTime.epochMs,
      start_offset_minutes: input.startTime.offsetMinutes,
      end_at: input.endTime.epochMs,
      end_offset_minutes: input.endTime.offsetMinutes,
      timezone: input.timezone,
      language_code: input.languageCode ?? null,
      country_code: input.countryCode ?? null,
      media_type: input.mediaType ?? 'VIDEO',
      status: 'SCHEDULED',
      ats_name: atsName,
      employer_name: employerName,
      started_at: null,
      ended_at: null,
      archived_at: null,
      cancelled_at: null,
      created_at: now,
      updated_at: now,
    };
    const interviewers: InterviewerRow[] = [
      {
        email: creator.email,
        emailNormalized: creatorEmail,
        name: creator.name,
        userId: creator.id,
      },
      ...invited.map((invitation) => ({ ...invitation, name: null, userId: null })),
    ].map((person, position) => ({
      id: randomUUID(),
      event_id: event.id,
      email: person.email,
      email_normalized: person.emailNormalized,
      name: person.name,
      user_id: person.userId,
      position,
      created_at: now,
    }));

    try {
      await this.events.inTransaction(async (store, tx) => {
        await store.insertEvent(event);
        await store.insertInterviewers(interviewers);
        await store.insertLobbyTokens([
          mintLobbyToken(this.lobbyTokenBox, 'landing', event.id, null, now),
          mintLobbyToken(this.lobbyTokenBox, 'interviewer', event.id, null, now),
        ]);
        if (interviewee) await this.addInterviewee(store, event.id, interviewee, now);
        await new InterviewNotices(event, event.status, now).created().recordIn(this.outbox, tx);
      });
    } catch (error) {
      // The app, account or employer the event hangs from was deleted after the token was
      // checked (a verified token may be trusted for a few seconds): nothing can refer to it.
      if (isForeignKeyViolation(error)) throw new CreatorGoneError();
      throw error;
    }
    return event;
  }

  async update(employerId: string, input: UpdateVirtualInterviewEventInput): Promise<EventRow> {
    const chosen = UPDATE_VARIANTS.filter((variant) => input[variant] != null);
    if (chosen.length !== 1) {
      throw new ValidationError(
        `input must set exactly one of ${UPDATE_VARIANTS.join(', ')} (got ${chosen.length ? chosen.join(', ') : 'none'})`,
        'input',
      );
    }
    const { reschedule, addInterviewers, addInterviewee, setTitle, setTimezone } = input;
    const id = (reschedule ?? addInterviewers ?? addInterviewee ?? setTitle ?? setTimezone)!.id;
    if (!isPossibleEventId(id)) throw eventNotFound(id);
    const now = this.clock.now();
    const updated = await this.events.inTransaction(async (store, tx) => {
      const { row, status } = await this.changeableEvent(store, employerId, id, now);
      // What changed, if anything did: setting the values the event already has is no news.
      let change: InterviewEventChange | null = null;
      if (reschedule) {
        if (status !== 'SCHEDULED') {
          throw new ValidationError(
            `only a SCHEDULED event can be rescheduled; this one is ${status}`,
            'reschedule',
          );
        }
        checkSchedule(reschedule.startTime, reschedule.endTime, 'input.reschedule');
        const times: Partial<EventRow> = {
          start_at: reschedule.startTime.epochMs,
          start_offset_minutes: reschedule.startTime.offsetMinutes,
          end_at: reschedule.endTime.epochMs,
          end_offset_minutes: reschedule.endTime.offsetMinutes,
          ...(reschedule.timezone != null && { timezone: reschedule.timezone }),
        };
        await store.updateEvent(id, { ...times, updated_at: now });
        if (differs(row, times)) change = 'rescheduled';
      } else if (addInterviewers) {
        const { emails, lastPosition } = await store.invitations(id);
        // The creator, always first, does not count towards the limit.
        const invited = newInvitations(
          addInterviewers.interviewers,
          emails,
          emails.size - 1,
          'input.addInterviewers.interviewers',
        );
        await store.insertInterviewers(
          invited.map((invitation, index) => ({
            id: randomUUID(),
            event_id: id,
            email: invitation.email,
            email_normalized: invitation.emailNormalized,
            name: null,
            user_id: null,
            position: lastPosition + 1 + index,
            created_at: now,
          })),
        );
        await store.updateEvent(id, { updated_at: now });
        if (invited.length) change = 'interviewers_added';
      } else if (addInterviewee) {
        const fields = intervieweeFields(
          addInterviewee.interviewee,
          'input.addInterviewee.interviewee',
        );
        if (await store.hasInterviewee(id)) throw alreadyHasInterviewee();
        await this.addInterviewee(store, id, fields, now);
        await store.updateEvent(id, { updated_at: now });
        change = 'interviewee_added';
      } else if (setTitle) {
        const title = requiredText(setTitle.title, 'input.setTitle.title', TITLE_MAX);
        await store.updateEvent(id, { title, updated_at: now });
        if (title !== row.title) change = 'title';
      } else if (setTimezone) {
        await store.updateEvent(id, { timezone: setTimezone.timezone, updated_at: now });
        if (setTimezone.timezone !== row.timezone) change = 'timezone';
      }
      if (change) {
        await new InterviewNotices(row, status, now).updated(change).recordIn(this.outbox, tx);
      }
      return store.findEvent(id);
    });
    this.changes.changed(id);
    return updated;
  }

  /**
   * Cancels a SCHEDULED or STARTED event and its interviewee (closing a record still open); a
   * cancelled one comes back as is.
   */
  async cancel(employerId: string, id: string): Promise<EventRow> {
    if (!isPossibleEventId(id)) throw eventNotFound(id);
    const cancelled = await this.events.inTransaction(async (store, tx) => {
      const event = await store.findEventForUpdate(employerId, id);
      if (!event) throw eventNotFound(id);
      const now = this.clock.now();
      const status = this.settledStatus(event, now);
      const cancelling = eventTransition(status, 'cancel');
      if (!cancelling.allowed) {
        throw new ValidationError(`an event that is ${status} cannot be cancelled`, 'id');
      }
      if (cancelling.next === status) return event;
      await store.updateEvent(id, { status: 'CANCELLED', cancelled_at: now, updated_at: now });
      await store.cancelInterviewees(id, now);
      await store.closeOpenRecords(id, now);
      // The interviewee and an open record end with the event: its one notice says so.
      await new InterviewNotices(event, status, now)
        .eventMoved(cancelling.next)
        .recordIn(this.outbox, tx);
      return store.findEvent(id);
    });
    this.changes.changed(id);
    return cancelled;
  }

  /** The locked event and its status settled at `now`, once it is known it may still change. */
  private async changeableEvent(
    store: EventWriteStore,
    employerId: string,
    id: string,
    now: number,
  ): Promise<{ row: EventRow; status: EventStatus }> {
    const row = await store.findEventForUpdate(employerId, id);
    if (!row) throw eventNotFound(id);
    const status = this.settledStatus(row, now);
    if (FROZEN.has(status)) {
      throw new ValidationError(`an event that is ${status} cannot be changed`, 'id');
    }
    return { row, status };
  }

  private settledStatus(event: EventRow, now: number): EventStatus {
    return settleEvent(event, now, this.archiveAfterMs).status;
  }

  private async addInterviewee(
    store: EventWriteStore,
    eventId: string,
    fields: IntervieweeFields,
    now: number,
  ): Promise<void> {
    const row: IntervieweeRow = {
      id: randomUUID(),
      event_id: eventId,
      ...fields,
      status: 'RSVPED',
      checked_in_at: null,
      created_at: now,
      updated_at: now,
    };
    try {
      await store.insertInterviewee(row);
    } catch (error) {
      // A concurrent addInterviewee won the race for the event's only interviewee.
      if (isUniqueViolation(error)) throw alreadyHasInterviewee();
      throw error;
    }
    await store.insertLobbyTokens([
      mintLobbyToken(this.lobbyTokenBox, 'interviewee', eventId, row.id, now),
    ]);
  }
}

type IntervieweeFields = Pick<
  IntervieweeRow,
  'name' | 'email' | 'job_employer_job_id' | 'job_title' | 'job_location'
>;

function intervieweeFields(
  input: VirtualInterviewIntervieweeInput,
  path: string,
): IntervieweeFields {
  const job = input.job;
  const employerJobId = optionalText(job?.employerJobId, `${path}.job.employerJobId`, NAME_MAX);
  const jobTitle = optionalText(job?.title, `${path}.job.title`, JOB_TEXT_MAX);
  const jobLocation = optionalText(job?.location, `${path}.job.location`, JOB_TEXT_MAX);
  if (employerJobId && (jobTitle || jobLocation)) {
    throw new ValidationError(
      `${path}.job takes either employerJobId or title and location, not both`,
      'job',
    );
  }
  return {
    name: requiredText(input.name, `${path}.name`, NAME_MAX),
    email: input.email,
    job_employer_job_id: employerJobId,
    job_title: jobTitle,
    job_location: jobLocation,
  };
}

/** True when `patch` sets a column of `row` to another value. */
function differs(row: EventRow, patch: Partial<EventRow>): boolean {
  return Object.entries(patch).some(([column, value]) => row[column as keyof EventRow] !== value);
}

/** Another employer's event is reported exactly like one that does not exist. */
function eventNotFound(id: string): NotFoundError {
  return new NotFoundError(`no virtual interview event with id ${quotedEventId(id)}`, 'id');
}

function alreadyHasInterviewee(): ValidationError {
  return new ValidationError(
    'this event already has an interviewee; an event has at most one',
    'addInterviewee',
  );
}
