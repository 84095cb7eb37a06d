import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { randomToken } from '../security/random.js';
import { readCookie, writeCookie } from './cookies.js';
import type { BrowserSession } from './sessions.js';

/** Double-submit cookie of forms shown before sign-in. */
export const CSRF_COOKIE = 'hpa_csrf';

/** Name of the hidden form field that carries the token. */
export const CSRF_FIELD = 'csrf_token';

const COOKIE_VALUE_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/**
 * CSRF tokens for every form of the service's pages.
 *
 * - Signed in: the token is an HMAC of a fixed label under the session's own random
 *   `csrf_secret`, so it is stable for the session and worthless after it ends.
 * - Before sign-in: a random `hpa_csrf` cookie (HttpOnly, SameSite=Lax) and, in the form, an HMAC
 *   of its value under a server key. Another site can neither read the cookie nor, lacking the
 *   key, mint a matching pair even if it manages to plant a cookie.
 *
 * Presented tokens are compared in constant time.
 */
export class CsrfTokens {
  private readonly serverKey: Buffer;

  constructor(
    serverSecret: string,
    private readonly cookie: { secure: boolean },
  ) {
    this.serverKey = Buffer.from(
      hkdfSync('sha256', serverSecret, 'hiring-partner-api', 'csrf-double-submit', 32),
    );
  }

  /** The token for forms shown to a signed-in browser. */
  forSession(session: Pick<BrowserSession, 'csrfSecret'>): string {
    return hmac(session.csrfSecret, 'session-form');
  }

  verifySession(session: Pick<BrowserSession, 'csrfSecret'>, presented: unknown): boolean {
    return sameToken(presented, this.forSession(session));
  }

  /** The token for forms shown before sign-in; gives the browser an hpa_csrf cookie if needed. */
  forAnonymous(req: Request, res: Response): string {
    let value = readCookie(req, CSRF_COOKIE);
    if (!value || !COOKIE_VALUE_FORMAT.test(value)) {
      value = randomToken(32);
      writeCookie(res, CSRF_COOKIE, value, { secure: this.cookie.secure });
    }
    return hmac(this.serverKey, value);
  }

  verifyAnonymous(req: Request, presented: unknown): boolean {
    const value = readCookie(req, CSRF_COOKIE);
    if (!value || !COOKIE_VALUE_FORMAT.test(value)) return false;
    return sameToken(presented, hmac(this.serverKey, value));
  }
}

function hmac(key: string | Buffer, message: string): string {
  return createHmac('sha256', key).update(message, 'utf8').digest('base64url');
}

function sameToken(presented: unknown, expected: string): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(presented, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}
