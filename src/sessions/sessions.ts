import type { Request, Response } from 'express';
import type { Clock } from '../clock.js';
import type { BrowserSessionRow } from '../db/rows.js';
import type { Transaction } from '../db/transactions.js';
import { randomToken, sha256Hex } from '../security/random.js';
import { clearCookie, readCookie, writeCookie } from './cookies.js';
import type { SessionStore } from './session-store.js';

export const SESSION_COOKIE = 'hpa_session';

/** Absolute lifetime: a session ends 12 hours after sign-in, however active it is. */
export const SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;

/** last_seen_at is refreshed at most this often, so that page views rarely write. */
const TOUCH_INTERVAL_MS = 5 * 60 * 1000;

/** A session id is 32 random bytes in base64url: exactly 43 characters of this alphabet. */
const SESSION_ID_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/** A signed-in browser, as the pages see it. */
export interface BrowserSession {
  idHash: string;
  userId: string;
  /** Key from which the session's CSRF token is derived (see csrf.ts). */
  csrfSecret: string;
  /** When the user signed in (epoch ms): the `auth_time` of what they authorize. */
  createdAt: number;
  expiresAt: number;
}

/** A session just created; `id` goes into the cookie and is never stored. */
export interface NewSession {
  id: string;
  session: BrowserSession;
}

/**
 * Browser sessions of the service's own pages (authorization pages, later the partner console).
 * The cookie carries a random 256-bit id; the database holds only its SHA-256, so a leaked
 * table cannot be replayed as cookies. Expired sessions are ignored and deleted when next seen.
 */
export class BrowserSessions {
  constructor(
    private readonly store: SessionStore,
    private readonly clock: Clock,
    private readonly cookie: { secure: boolean },
  ) {}

  /**
   * Stores a new session for a user who has just signed in; `store` may be one bound to a
   * transaction (see SessionStore.inTransaction).
   */
  async create(userId: string, store: SessionStore = this.store): Promise<NewSession> {
    const id = randomToken(32);
    const now = this.clock.now();
    const row: BrowserSessionRow = {
      id_hash: sha256Hex(id),
      user_id: userId,
      csrf_secret: randomToken(32),
      created_at: now,
      last_seen_at: now,
      expires_at: now + SESSION_LIFETIME_MS,
    };
    await store.insert(row);
    return { id, session: toSession(row) };
  }

  /** Hands a session just created to the browser; the cookie lives as long as the session. */
  setCookie(res: Response, created: NewSession): void {
    const { createdAt, expiresAt } = created.session;
    writeCookie(res, SESSION_COOKIE, created.id, {
      secure: this.cookie.secure,
      maxAgeSeconds: Math.floor((expiresAt - createdAt) / 1000),
    });
  }

  /** The live session named by the request's cookie, if any. */
  async current(req: Request): Promise<BrowserSession | undefined> {
    const idHash = this.cookieIdHash(req);
    if (!idHash) return undefined;
    const row = await this.store.findByIdHash(idHash);
    if (!row) return undefined;
    const now = this.clock.now();
    if (row.expires_at <= now) {
      await this.store.delete(idHash);
      return undefined;
    }
    if (now - row.last_seen_at >= TOUCH_INTERVAL_MS) await this.store.touch(idHash, now);
    return toSession(row);
  }

  /**
   * Signs the user out of every browser (the console and the authorization pages share these
   * sessions); given a transaction, the sign-out commits with it. Returns how many ended.
   */
  endAllOf(userId: string, tx?: Transaction): Promise<number> {
    return (tx ? this.store.on(tx) : this.store).deleteForUser(userId);
  }

  /** Deletes the session the request's cookie names (if any), leaving the cookie as it is. */
  async discard(req: Request): Promise<void> {
    const idHash = this.cookieIdHash(req);
    if (idHash) await this.store.delete(idHash);
  }

  /** Signs the browser out: deletes its session and clears the cookie. */
  async end(req: Request, res: Response): Promise<void> {
    await this.discard(req);
    clearCookie(res, SESSION_COOKIE, { secure: this.cookie.secure });
  }

  private cookieIdHash(req: Request): string | undefined {
    const id = readCookie(req, SESSION_COOKIE);
    return id && SESSION_ID_FORMAT.test(id) ? sha256Hex(id) : undefined;
  }
}

function toSession(row: BrowserSessionRow): BrowserSession {
  return {
    idHash: row.id_hash,
    userId: row.user_id,
    csrfSecret: row.csrf_secret,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
  };
}
