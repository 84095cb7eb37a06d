/**
 * `Intl.DateTimeFormat`s made once per locale and options. Making one costs tens of
 * microseconds (ICU loads the zone's rules and builds the pattern) where formatting with it
 * costs about one, and a calendar mail or an interview page formats a dozen times: made per call,
 * they were a tenth of a busy process's time. Zones come from validated input (IANA names), so
 * few are ever kept; the cache is bounded all the same.
 */
const MOST_KEPT = 512;
const kept = new Map<string, Intl.DateTimeFormat>();

export function dateTimeFormat(
  locale: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = `${locale} ${JSON.stringify(options)}`;
  let format = kept.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    if (kept.size >= MOST_KEPT) kept.delete(kept.keys().next().value as string);
    kept.set(key, format);
  }
  return format;
}
