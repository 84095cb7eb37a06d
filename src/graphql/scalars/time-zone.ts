import {
  createStringScalar,
  InvalidScalarValueError,
  quote,
  requireString,
} from './string-scalar.js';

/** Longer than any IANA name; anything beyond is refused before asking Intl. */
const MAX_TIME_ZONE_LENGTH = 64;
/** `+05:00`, `-0530`: refused even where Intl accepts offsets as zones (ES2024 and later). */
const BARE_UTC_OFFSET = /^[+-]\d{2}(?::?\d{2})?$/;
/** `UTC+5`, `GMT-05:00`: only used to word the error, as IANA has links like `GMT+0`. */
const PREFIXED_UTC_OFFSET = /^(?:UTC|GMT)[+-]\d{1,2}(?::?\d{2})?$/i;

let listedZoneByLowerCase: Map<string, string> | undefined;
/** Intl's answers for names it accepts that it does not list (links, `UTC`, `Etc/...`). */
const resolvedZoneByLowerCase = new Map<string, string>();

/**
 * Checks an IANA time zone name, links such as `Asia/Calcutta` and `UTC` included, and returns
 * it as given except for letter case, which is corrected when the usual spelling is known
 * (`america/new_york` becomes `America/New_York`).
 */
export function parseTimeZone(text: string): string {
  if (BARE_UTC_OFFSET.test(text)) throw offsetNotZone(text);
  const lowerCase = text.toLowerCase();
  const listed = listedZones().get(lowerCase);
  if (listed) return listed;

  const resolved = resolveWithIntl(text, lowerCase);
  if (resolved === undefined) {
    if (PREFIXED_UTC_OFFSET.test(text)) throw offsetNotZone(text);
    throw new InvalidScalarValueError(
      `TimeZone ${quote(text)} is not a known IANA time zone name such as "America/New_York"`,
    );
  }
  // Intl may resolve a link to another zone ("US/Eastern" to "America/New_York"); keep the
  // caller's name then, and take Intl's spelling only when the two differ in letter case alone.
  return resolved.toLowerCase() === lowerCase ? resolved : text;
}

/** The canonical names Intl lists (no links, no `UTC`), keyed by lower case, built once. */
function listedZones(): Map<string, string> {
  listedZoneByLowerCase ??= new Map(
    Intl.supportedValuesOf('timeZone').map((zone) => [zone.toLowerCase(), zone]),
  );
  return listedZoneByLowerCase;
}

function resolveWithIntl(text: string, lowerCase: string): string | undefined {
  const cached = resolvedZoneByLowerCase.get(lowerCase);
  if (cached !== undefined || text.length > MAX_TIME_ZONE_LENGTH) return cached;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: text }).resolvedOptions().timeZone;
  } catch (error) {
    if (error instanceof RangeError) return undefined;
    throw error;
  }
  // Bounded: only names Intl accepts get here, and Intl matches them case-insensitively.
  resolvedZoneByLowerCase.set(lowerCase, resolved);
  return resolved;
}

function offsetNotZone(text: string): InvalidScalarValueError {
  return new InvalidScalarValueError(
    `TimeZone ${quote(text)} is a UTC offset, not an IANA time zone name such as "America/New_York"`,
  );
}

export const timeZoneScalar = createStringScalar<string>({
  name: 'TimeZone',
  parse: parseTimeZone,
  format: (value) => parseTimeZone(requireString('TimeZone', value)),
});
