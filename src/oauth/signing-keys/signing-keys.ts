import {
  calculateJwkThumbprint,
  exportJWK,
  exportPKCS8,
  generateKeyPair,
  importJWK,
  importPKCS8,
  type CryptoKey,
  type JWK,
} from 'jose';
import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import type { SigningAlg, SigningKeyRow } from '../../db/rows.js';
import type { SecretBox } from '../../security/secret-box.js';
import type { SigningKeyStore } from './signing-key-store.js';

/** Access tokens are ES256 (as the hosted platform's are); ID tokens are RS256. */
export const SIGNING_ALGS: readonly SigningAlg[] = ['ES256', 'RS256'];

/**
 * How long a superseded key keeps verifying and stays in the JWKS: the longest lifetime of a
 * token it signed (one hour) plus a margin for clock skew and caches.
 */
export const KEY_GRACE_PERIOD_MS = 60 * 60 * 1000 + 5 * 60 * 1000;

/** How long the keys read from the database are reused before another look. */
const CACHE_TTL_MS = 30_000;
/** An unknown kid triggers a reload at most this often, so forged kids cannot flood the database. */
const MISS_RELOAD_INTERVAL_MS = 2_000;

export interface Signer {
  kid: string;
  alg: SigningAlg;
  key: CryptoKey;
}

export type PublicJwk = JWK & { kid: string; alg: SigningAlg; use: 'sig' };

interface LoadedKey {
  row: SigningKeyRow;
  publicJwk: PublicJwk;
  publicKey: CryptoKey;
  privateKey?: CryptoKey;
}

/**
 * The signing keys of the authorization server. Keys live in the database (private halves
 * sealed with KEY_ENCRYPTION_SECRET) so every process signs and verifies with the same set;
 * each process imports them once and rereads the table periodically to see rotations.
 */
export class SigningKeys {
  private cache: { loadedAt: number; keys: Map<string, LoadedKey> } | undefined;
  private lastMissReload = 0;

  constructor(
    private readonly store: SigningKeyStore,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Creates a key for each algorithm that has none yet (first start of a fresh database). */
  async ensureActiveKeys(): Promise<void> {
    for (const alg of SIGNING_ALGS) {
      if (!(await this.store.findActive(alg))) {
        await this.store.insert(await this.newKey(alg));
        this.logger.info({ alg }, 'created signing key');
      }
    }
    this.cache = undefined;
  }

  /**
   * Adds a new key for each algorithm and supersedes the previous ones. Old keys keep verifying
   * (and stay published) until every token they signed has expired.
   */
  async rotate(): Promise<Array<{ alg: SigningAlg; kid: string; replaced: string | null }>> {
    const now = this.clock.now();
    const fresh = await Promise.all(SIGNING_ALGS.map((alg) => this.newKey(alg, now)));
    const result = await this.store.inTransaction(async (store) => {
      const rotated = [];
      for (const row of fresh) {
        const previous = await store.findActive(row.alg);
        if (previous) await store.supersede([previous.kid], now, now + KEY_GRACE_PERIOD_MS);
        await store.insert(row);
        rotated.push({ alg: row.alg, kid: row.kid, replaced: previous?.kid ?? null });
      }
      return rotated;
    });
    this.cache = undefined;
    return result;
  }

  /** The key that signs new tokens of `alg`. */
  async signer(alg: SigningAlg): Promise<Signer> {
    const keys = await this.load();
    const active = [...keys.values()]
      .filter((key) => key.row.alg === alg && key.row.superseded_at === null)
      .sort((a, b) => b.row.created_at - a.row.created_at)[0];
    if (!active) throw new Error(`no active ${alg} signing key; run ensureActiveKeys first`);
    active.privateKey ??= await importPKCS8(this.box.open(active.row.private_key_encrypted), alg);
    return { kid: active.row.kid, alg, key: active.privateKey };
  }

  /** The public key for `kid`, or undefined when no verifiable key has that id. */
  async verificationKey(kid: string, alg: string): Promise<CryptoKey | undefined> {
    let key = (await this.load()).get(kid);
    const now = this.clock.now();
    if (!key && now - this.lastMissReload >= MISS_RELOAD_INTERVAL_MS) {
      this.lastMissReload = now;
      key = (await this.load(true)).get(kid);
    }
    if (!key || key.row.alg !== alg) return undefined;
    if (key.row.retire_after !== null && key.row.retire_after <= now) return undefined;
    return key.publicKey;
  }

  /** The JWKS document: public halves of every key that can still verify a token. */
  async jwks(): Promise<{ keys: PublicJwk[] }> {
    const now = this.clock.now();
    const keys = [...(await this.load()).values()]
      .filter((key) => key.row.retire_after === null || key.row.retire_after > now)
      .map((key) => key.publicJwk);
    return { keys };
  }

  private async load(force = false): Promise<Map<string, LoadedKey>> {
    const now = this.clock.now();
    if (!force && this.cache && now - this.cache.loadedAt < CACHE_TTL_MS) return this.cache.keys;
    const rows = await this.store.listVerifiable(now);
    const keys = new Map<string, LoadedKey>();
    for (const row of rows) {
      const cached = this.cache?.keys.get(row.kid);
      if (cached) {
        keys.set(row.kid, { ...cached, row });
        continue;
      }
      const publicJwk = JSON.parse(row.public_jwk) as PublicJwk;
      keys.set(row.kid, {
        row,
        publicJwk,
        publicKey: (await importJWK(publicJwk, row.alg)) as CryptoKey,
      });
    }
    this.cache = { loadedAt: now, keys };
    return keys;
  }

  private async newKey(alg: SigningAlg, now = this.clock.now()): Promise<SigningKeyRow> {
    const { publicKey, privateKey } = await generateKeyPair(alg, {
      extractable: true,
      ...(alg === 'RS256' && { modulusLength: 2048 }),
    });
    const jwk = await exportJWK(publicKey);
    const kid = await calculateJwkThumbprint(jwk);
    const publicJwk: PublicJwk = { ...jwk, kid, alg, use: 'sig' };
    return {
      kid,
      alg,
      public_jwk: JSON.stringify(publicJwk),
      private_key_encrypted: this.box.seal(await exportPKCS8(privateKey)),
      created_at: now,
      superseded_at: null,
      retire_after: null,
    };
  }
}
