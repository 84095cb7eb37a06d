import type { AppRow } from '../db/rows.js';
import { InvalidFields, type FieldProblem } from '../errors.js';
import { singleLineTextProblem } from '../security/text-safety.js';
import { LOOPBACK_HOSTS } from './redirect-uris.js';

export const MAX_DEVELOPER_NAME_LENGTH = 200;
export const MAX_PUBLISHER_URL_LENGTH = 2048;

/** The publisher details an owner types; undefined leaves a stored value as it is. */
export interface AppPublisherInput {
  developerName?: string | null;
  homepageUrl?: string | null;
  privacyPolicyUrl?: string | null;
  logoUrl?: string | null;
}

export type AppPublisher = Pick<
  AppRow,
  'developer_name' | 'homepage_url' | 'privacy_policy_url' | 'logo_url'
>;

/** The form fields (and columns) of the publisher details, with the words errors use. */
const URL_FIELDS = [
  ['homepageUrl', 'homepage_url', 'homepage URL'],
  ['privacyPolicyUrl', 'privacy_policy_url', 'privacy policy URL'],
  ['logoUrl', 'logo_url', 'logo URL'],
] as const;

/**
 * Checks the publisher details over what is stored (`current`): each blank value becomes null,
 * every refused field is reported at once (InvalidFields), and nothing is returned half-checked.
 */
export function checkAppPublisher(input: AppPublisherInput, current: AppPublisher): AppPublisher {
  const problems: FieldProblem[] = [];
  const next: AppPublisher = {
    developer_name: current.developer_name,
    homepage_url: current.homepage_url,
    privacy_policy_url: current.privacy_policy_url,
    logo_url: current.logo_url,
  };
  if (input.developerName !== undefined) {
    const name = (input.developerName ?? '').trim();
    const problem = developerNameProblem(name);
    if (problem) problems.push({ field: 'developer_name', message: `developer name ${problem}` });
    else next.developer_name = name || null;
  }
  for (const [key, column, words] of URL_FIELDS) {
    const value = input[key];
    if (value === undefined) continue;
    const url = (value ?? '').trim();
    const problem = url ? publisherUrlProblem(url) : undefined;
    if (problem) problems.push({ field: column, message: `${words} ${problem}` });
    else next[column] = url || null;
  }
  if (problems.length) throw new InvalidFields(problems);
  return next;
}

function developerNameProblem(name: string): string | undefined {
  if (name.length > MAX_DEVELOPER_NAME_LENGTH) {
    return `must be at most ${MAX_DEVELOPER_NAME_LENGTH} characters`;
  }
  return singleLineTextProblem(name);
}

/**
 * A page or image users open from the consent page: absolute https (plain http only on the
 * loopback hosts redirect URLs also allow, for local development), no user name or password.
 */
export function publisherUrlProblem(url: string): string | undefined {
  if (url.length > MAX_PUBLISHER_URL_LENGTH) {
    return `must be at most ${MAX_PUBLISHER_URL_LENGTH} characters`;
  }
  const problem = singleLineTextProblem(url);
  if (problem) return problem;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'must be an absolute URL starting with https://';
  }
  const loopbackHttp = parsed.protocol === 'http:' && LOOPBACK_HOSTS.has(parsed.hostname);
  if (parsed.protocol !== 'https:' && !loopbackHttp) {
    return 'must start with https:// (plain http only on localhost, 127.0.0.1 or [::1])';
  }
  if (parsed.username || parsed.password) return 'must not contain a user name or password';
  return undefined;
}
