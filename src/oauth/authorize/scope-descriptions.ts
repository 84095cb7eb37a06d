import type { Scope } from '../scopes.js';

/** What each scope lets an app do, in the words the consent page uses. */
const DESCRIPTIONS: Record<Scope, string | undefined> = {
  // openid changes nothing: the app learns the account id either way (see ALWAYS_SHARED).
  openid: undefined,
  email: 'See your email address and whether it has been verified',
  offline_access: 'Keep access when you are not using it, until access is withdrawn',
  employer_access: 'See the employers your account belongs to and act on their behalf',
  'interviews.schedule': 'Schedule, change and cancel virtual interviews',
};

/** Every app that is granted anything learns who signed in. */
const ALWAYS_SHARED = 'Know which account you are signed in with';

/** The consent page's list for a set of requested scopes, in a stable order. */
export function describeScopes(scopes: readonly Scope[]): string[] {
  const described = (Object.keys(DESCRIPTIONS) as Scope[])
    .filter((scope) => scopes.includes(scope))
    .map((scope) => DESCRIPTIONS[scope])
    .filter((text): text is string => text !== undefined);
  return [ALWAYS_SHARED, ...described];
}
