/** Spec §5.5 and §8: access tokens live one hour. */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
/** ID tokens live as long as the access token they come with. */
export const ID_TOKEN_TTL_SECONDS = 3600;
/** DESIGN §3: refresh tokens live 60 days and rotate on every use. */
export const REFRESH_TOKEN_TTL_MS = 60 * 24 * 60 * 60 * 1000;
/** Tokens the console issues for its API explorer: long enough to try things, short if leaked. */
export const EXPLORER_TOKEN_TTL_SECONDS = 15 * 60;
