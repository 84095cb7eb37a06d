import type { Request } from 'express';

/** Redirect URL inputs are named redirect_uri_1, redirect_uri_2, …; this many are read at most. */
const MAX_REDIRECT_FIELDS = 10;

/** A text field of the submitted form; missing, repeated or non-text values read as ''. */
export function field(req: Request, name: string): string {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}

/**
 * The redirect URLs typed into the numbered inputs, in input order, blanks skipped and
 * surrounding spaces removed. More than the limit are passed on so the rules can refuse them.
 */
export function redirectUriFields(req: Request): string[] {
  const uris: string[] = [];
  for (let index = 1; index <= MAX_REDIRECT_FIELDS; index++) {
    const value = field(req, `redirect_uri_${index}`).trim();
    if (value) uris.push(value);
  }
  return uris;
}

/** A service message as a sentence for a page: capital first letter, final full stop. */
export function sentence(message: string): string {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** `45 seconds`, `1 minute`, `15 minutes`. */
export function waitFor(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
