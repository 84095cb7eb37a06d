import { EMAIL_LINK_PREFIXES } from '../console/paths.js';
import { LOBBY_PATHS } from '../interviews/lobby-links.js';
import { RECORDINGS_PATH } from '../recordings/recording-tokens.js';

/**
 * Every URL prefix whose next path segment is a capability token: whoever has the URL may open
 * what it names. Under the lobby prefixes are the landing page, both lobbies, their forms, the
 * room page, the room's live sockets (`…/live`), calendar files and recording uploads; then the
 * recordings' streams and the mailed links. A route that puts a token in its path belongs here
 * (test/http/logged-paths.test.ts requests every `:token` route and checks its log line).
 */
export const CAPABILITY_PREFIXES: readonly string[] = [
  ...Object.values(LOBBY_PATHS),
  RECORDINGS_PATH,
  ...Object.values(EMAIL_LINK_PREFIXES),
];

/** What a masked token reads as in the log. */
const MASKED_TOKEN = ':token';

const PREFIX_SEGMENTS = CAPABILITY_PREFIXES.map((prefix) => segmentsOf(prefix).map(normalized));

/** `http://host` before an absolute-form request target's path. */
const SCHEME_AND_AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/]*/;

/**
 * The path of a request as it may be logged, from the URL the client sent (`req.originalUrl`:
 * routers rewrite `req.url` and `req.path` on the way): without the query string, which can carry
 * codes, states and tokens, and with the segment after every capability prefix replaced by
 * `:token`. Prefixes are matched as the router would route them and more loosely still (any case,
 * repeated slashes, percent-encoding), so that no spelling of a capability URL escapes the mask.
 */
export function loggablePath(url: string): string {
  const path = url.split(/[?#]/, 1)[0]!.replace(SCHEME_AND_AUTHORITY, '') || '/';
  const segments = path.split('/');
  // Indexes of the non-empty segments: `//recordings/x` routes nowhere, but it is still a token.
  const named = segments.flatMap((segment, index) => (segment === '' ? [] : [index]));
  const words = named.map((index) => normalized(segments[index]!));
  for (const prefix of PREFIX_SEGMENTS) {
    if (words.length > prefix.length && prefix.every((word, at) => words[at] === word)) {
      segments[named[prefix.length]!] = MASKED_TOKEN;
      break;
    }
  }
  return segments.join('/');
}

function segmentsOf(path: string): string[] {
  return path.split('/').filter(Boolean);
}

function normalized(segment: string): string {
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // Malformed percent-encoding: compared as it is.
  }
  return decoded.toLowerCase();
}
