import type { Clock } from '../clock.js';
import type { EmailTokenPurpose } from '../db/rows.js';
import type { Transaction } from '../db/transactions.js';
import { randomToken, sha256Hex } from '../security/random.js';
import type { EmailTokenStore } from './email-token-store.js';

/** Why a link does not work: never issued (or mistyped), already used, or too old. */
export type LinkProblem = 'invalid' | 'used' | 'expired';

export type LinkCheck = { ok: true; userId: string } | { ok: false; problem: LinkProblem };

/** A token is 32 random bytes in base64url: exactly 43 characters of this alphabet. */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

/** Expired links are kept this long, so that opening one says "expired" rather than "invalid". */
const KEEP_EXPIRED_MS = 7 * 24 * 60 * 60 * 1000;

/** Absolute URLs of the pages the mailed links open, built by the composition root. */
export interface EmailLinkUrls {
  verifyEmail(token: string): string;
  resetPassword(token: string): string;
  signIn: string;
  forgotPassword: string;
}

/**
 * Single-use tokens for mailed links: 256 random bits, stored only as their SHA-256, each with
 * a purpose and an expiry. Using one is a conditional update, so a link works exactly once.
 */
export class EmailLinks {
  constructor(
    private readonly store: EmailTokenStore,
    private readonly clock: Clock,
  ) {}

  /** A new token for the user; the caller mails it. */
  async issue(userId: string, purpose: EmailTokenPurpose, lifetimeMs: number): Promise<string> {
    const token = randomToken(32);
    const now = this.clock.now();
    await this.store.purgeExpired(now - KEEP_EXPIRED_MS);
    await this.store.insert({
      id_hash: sha256Hex(token),
      user_id: userId,
      purpose,
      created_at: now,
      expires_at: now + lifetimeMs,
      used_at: null,
    });
    return token;
  }

  /** Whether the link would work now, without using it. */
  async check(
    token: string,
    purpose: EmailTokenPurpose,
    store: EmailTokenStore = this.store,
  ): Promise<LinkCheck> {
    const row = TOKEN_FORMAT.test(token) ? await store.find(sha256Hex(token), purpose) : undefined;
    if (!row) return { ok: false, problem: 'invalid' };
    if (row.used_at !== null) return { ok: false, problem: 'used' };
    if (row.expires_at <= this.clock.now()) return { ok: false, problem: 'expired' };
    return { ok: true, userId: row.user_id };
  }

  /**
   * Uses the link inside `tx`: the user it was for, or why it does not work. Only one caller
   * ever gets the user; the use commits or rolls back with the rest of `tx`.
   */
  async use(token: string, purpose: EmailTokenPurpose, tx: Transaction): Promise<LinkCheck> {
    if (!TOKEN_FORMAT.test(token)) return { ok: false, problem: 'invalid' };
    const store = this.store.on(tx);
    const used = await store.consume(sha256Hex(token), purpose, this.clock.now());
    if (used) return { ok: true, userId: used.user_id };
    const checked = await this.check(token, purpose, store);
    // Used meanwhile by the request that won: that is what this one saw.
    return { ok: false, problem: checked.ok ? 'used' : checked.problem };
  }

  /** Ends the user's other unused links of this purpose, inside `tx`. */
  retireOthers(userId: string, purpose: EmailTokenPurpose, tx: Transaction): Promise<void> {
    return this.store.on(tx).retireUnused(userId, purpose, this.clock.now());
  }
}
