import {
  createStringScalar,
  InvalidScalarValueError,
  quote,
  requireString,
} from './string-scalar.js';

const MAX_URL_LENGTH = 2048;
const WEB_PROTOCOLS = new Set(['http:', 'https:']);
/** The URL parser silently strips or escapes these; a value relying on that is refused. */
const WHITESPACE_OR_CONTROL = /[\s\p{Cc}]/u;

/** Checks an absolute http(s) URL (WHATWG URL Standard) and returns it unchanged. */
export function parseWebUrl(text: string): string {
  if (text.length > MAX_URL_LENGTH) {
    throw new InvalidScalarValueError(
      `WebUrl ${quote(text)} is longer than ${MAX_URL_LENGTH} characters`,
    );
  }
  if (WHITESPACE_OR_CONTROL.test(text)) {
    throw new InvalidScalarValueError(
      `WebUrl ${quote(text)} contains whitespace or control characters`,
    );
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidScalarValueError(
      `WebUrl ${quote(text)} is not an absolute URL such as "https://example.com/path"`,
    );
  }
  if (!WEB_PROTOCOLS.has(url.protocol)) {
    throw new InvalidScalarValueError(
      `WebUrl ${quote(text)} must use http or https, not ${url.protocol.slice(0, -1)}`,
    );
  }
  return text;
}

export const webUrlScalar = createStringScalar<string>({
  name: 'WebUrl',
  parse: parseWebUrl,
  format: (value) => parseWebUrl(requireString('WebUrl', value)),
});
