/** Where the partner console's pages live. */
export const CONSOLE_PREFIX = '/console';

export const CONSOLE_PATHS = {
  dashboard: CONSOLE_PREFIX,
  signIn: `${CONSOLE_PREFIX}/sign-in`,
  signUp: `${CONSOLE_PREFIX}/sign-up`,
  signOut: `${CONSOLE_PREFIX}/sign-out`,
  newApp: `${CONSOLE_PREFIX}/apps/new`,
  credentials: `${CONSOLE_PREFIX}/apps/:clientId/credentials`,
  rotate: `${CONSOLE_PREFIX}/apps/:clientId/credentials/rotate`,
  reveal: `${CONSOLE_PREFIX}/apps/:clientId/credentials/reveal`,
} as const;

/** The pages of one app; client ids are hex, but are encoded all the same. */
export function appPaths(clientId: string) {
  const base = `${CONSOLE_PREFIX}/apps/${encodeURIComponent(clientId)}`;
  return {
    credentials: `${base}/credentials`,
    rotate: `${base}/credentials/rotate`,
    reveal: `${base}/credentials/reveal`,
  };
}
