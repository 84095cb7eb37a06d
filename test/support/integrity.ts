import type { Database } from '../../src/db/database.js';

/**
 * Rows that only a half-applied change could leave behind. Each query names the rows that break
 * one rule; none may return anything, whatever was acknowledged and whenever a process died.
 */
const HALF_WRITTEN: Record<string, string> = {
  'event without its creator as first interviewer': `
    select e.id from interview_events e
    where not exists (
      select 1 from interviewers i
      where i.event_id = e.id and i.position = 0 and i.user_id = e.created_by_user_id)`,
  'event without exactly one landing and one interviewer lobby link': `
    select e.id from interview_events e
    where (select count(*) from lobby_tokens t where t.event_id = e.id and t.role = 'landing') <> 1
       or (select count(*) from lobby_tokens t where t.event_id = e.id and t.role = 'interviewer') <> 1`,
  'two interviewers of one event in one position': `
    select event_id from interviewers group by event_id, position having count(*) > 1`,
  'interviewee without its event': `
    select v.id from interviewees v
    where not exists (select 1 from interview_events e where e.id = v.event_id)`,
  'interviewee without its lobby link': `
    select v.id from interviewees v
    where not exists (
      select 1 from lobby_tokens t where t.interviewee_id = v.id and t.role = 'interviewee')`,
  'interviewee in the room without exactly one open record': `
    select v.id from interviewees v
    where v.status = 'INTERVIEWING'
      and (select count(*) from interview_records r
           where r.interviewee_id = v.id and r.end_at is null) <> 1`,
  'open record of an interviewee who is not in the room': `
    select r.id from interview_records r join interviewees v on v.id = r.interviewee_id
    where r.end_at is null and v.status <> 'INTERVIEWING'`,
  'interviewed interviewee without a finished record': `
    select v.id from interviewees v
    where v.status = 'INTERVIEWED'
      and not exists (
        select 1 from interview_records r where r.interviewee_id = v.id and r.end_at is not null)`,
  'interviewee past the lobby door of an event that never started': `
    select v.id from interviewees v join interview_events e on e.id = v.event_id
    where v.status in ('CHECKED_IN', 'INTERVIEWING', 'INTERVIEWED', 'REQUEUED')
      and e.status = 'SCHEDULED'`,
  'refresh token without its family': `
    select t.token_hash from refresh_tokens t
    where not exists (select 1 from refresh_token_families f where f.id = t.family_id)`,
  'live job posting without its search entry, or with another title there': `
    select p.id from job_postings p
    where p.expired_at is null
      and not exists (
        select 1 from job_search_postings s
        where s.sourced_posting_id = p.sourced_posting_id and s.title = p.title)`,
  'expired job posting still in the search index': `
    select p.id from job_postings p join job_search_postings s
      on s.sourced_posting_id = p.sourced_posting_id
    where p.expired_at is not null`,
  'refresh family without a refresh token': `
    select f.id from refresh_token_families f
    where not exists (select 1 from refresh_tokens t where t.family_id = f.id)`,
};

/** Every broken rule with the rows that break it; empty when the database is whole. */
export async function halfWrittenRows(db: Database): Promise<string[]> {
  const problems: string[] = [];
  for (const [rule, sql] of Object.entries(HALF_WRITTEN)) {
    const result = await db.raw(sql);
    const rows: unknown[] = Array.isArray(result) ? result : result.rows;
    if (rows.length) problems.push(`${rule}: ${JSON.stringify(rows.slice(0, 5))}`);
  }
  return problems;
}
