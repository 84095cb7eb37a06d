/**
 * Markup that is already safe to put in a page. The reference's text comes from SDL files
 * (descriptions, default values, directive arguments), so every string reaches the page through
 * `html` or `escapeHtml` and only markup built by them is trusted.
 */
export class SafeHtml {
  constructor(readonly markup: string) {}

  toString(): string {
    return this.markup;
  }
}

type Interpolated = SafeHtml | string | number | null | undefined | false | readonly Interpolated[];

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text as it may appear in an element or in a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character]!);
}

/**
 * A template whose interpolated strings are escaped; SafeHtml is kept as it is, arrays are
 * concatenated, and null, undefined and false print nothing (for conditional parts).
 */
export function html(strings: TemplateStringsArray, ...values: Interpolated[]): SafeHtml {
  let markup = strings[0]!;
  values.forEach((value, index) => {
    markup += interpolate(value) + strings[index + 1]!;
  });
  return new SafeHtml(markup);
}

function interpolate(value: Interpolated): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return value.map((item) => interpolate(item)).join('');
  return escapeHtml(String(value));
}

/** Parts joined with a separator that is itself markup. */
export function joinHtml(parts: readonly SafeHtml[], separator: SafeHtml | string): SafeHtml {
  const between = separator instanceof SafeHtml ? separator.markup : escapeHtml(separator);
  return new SafeHtml(parts.map((part) => part.markup).join(between));
}
