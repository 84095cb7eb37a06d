import { ValidationError } from '../errors.js';

/**
 * Checks an endpoint URL before it is stored: the URL parsed and normalised, or a
 * ValidationError (field `url`) saying why it is refused. The management service is given one;
 * the SSRF guard (src/webhooks/ssrf/) provides the production one.
 */
export type EndpointUrlCheck = (url: string) => Promise<URL>;

const MAX_URL_LENGTH = 2048;

/**
 * The shape rules alone: an absolute http(s) URL (https unless private networks are allowed),
 * no credentials, no fragment, at most 2048 characters. Where addresses must be public, the SSRF
 * guard's check (which also resolves the host) replaces it.
 */
export function shapeOnlyUrlCheck(policy: { requireHttps: boolean }): EndpointUrlCheck {
  return async (raw) => {
    const text = raw.trim();
    if (!text) throw new ValidationError('enter the URL webhooks are sent to', 'url');
    if (text.length > MAX_URL_LENGTH) {
      throw new ValidationError(`the URL must be at most ${MAX_URL_LENGTH} characters`, 'url');
    }
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new ValidationError('the URL is not a valid absolute URL', 'url');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new ValidationError('the URL must start with https://', 'url');
    }
    if (policy.requireHttps && url.protocol !== 'https:') {
      throw new ValidationError('the URL must use https', 'url');
    }
    if (url.username || url.password) {
      throw new ValidationError('the URL must not contain a user name or password', 'url');
    }
    if (url.hash) throw new ValidationError('the URL must not contain a fragment (#)', 'url');
    return url;
  };
}
