import {
  createPrivateKey,
  createPublicKey,
  generateKeyPair,
  type JsonWebKey,
  type KeyObject,
} from 'node:crypto';
import { promisify } from 'node:util';
import { calculateJwkThumbprint, type JWK } from 'jose';
import type { Logger } from 'pino';
import type { Clock } from '../../clock.js';
import type { SigningKeyRow } from '../../db/rows.js';
import { SIGNING_ALGS, type SigningAlg } from './algorithms.js';
import type { SecretBox } from '../../security/secret-box.js';
import type { SigningKeyStore } from './signing-key-store.js';

/**
 * How long a superseded key keeps verifying and stays in the JWKS: the longest lifetime of a
 * token it signed (one hour) plus a margin for clock skew and caches.
 */
export const KEY_GRACE_PERIOD_MS = 60 * 60 * 1000 + 5 * 60 * 1000;

/**
 * How long the keys read from the database are reused before another look: a rotation reaches
 * every process's JWKS answer and signer within this time.
 */
export const KEY_CACHE_TTL_MS = 30_000;
/** An unknown kid triggers a reload at most this often, so forged kids cannot flood the database. */
const MISS_RELOAD_INTERVAL_MS = 2_000;

export interface Signer {
  kid: string;
  alg: SigningAlg;
  key: KeyObject;
}

/** A public key that verifies tokens, and until when (its retirement; null while unscheduled). */
export interface VerificationKey {
  key: KeyObject;
  retiresAt: number | null;
}

export type PublicJwk = JWK & { kid: string; alg: SigningAlg; use: 'sig' };

/** Where a key is in its life: published before it signs, published after it stopped. */
export type KeyState = 'pending' | 'active' | 'superseded';

export interface KeyStatus {
  kid: string;
  alg: SigningAlg;
  state: KeyState;
  activates_at: number;
  superseded_at: number | null;
  /** When it leaves the JWKS and stops verifying; null while nothing supersedes it. */
  retires_at: number | null;
}

export interface RotatedKey {
  alg: SigningAlg;
  kid: string;
  /** The key it succeeds, which keeps signing until `activates_at`. */
  replaced: string | null;
  activates_at: number;
}

interface LoadedKey {
  row: SigningKeyRow;
  publicJwk: PublicJwk;
  publicKey: KeyObject;
  privateKey?: KeyObject;
}

/**
 * The signing keys of the authorization server. Keys live in the database (private halves
 * sealed with KEY_ENCRYPTION_SECRET) so every process signs and verifies with the same set;
 * each process imports them once and rereads the table periodically to see rotations.
 */
export class SigningKeys {
  private cache: { loadedAt: number; keys: Map<string, LoadedKey> } | undefined;
  private lastMissReload = 0;

  /**
   * @param activationDelayMs how long a rotated key is published before it signs
   *   (SIGNING_KEY_ACTIVATION_DELAY_SECONDS).
   */
  constructor(
    private readonly store: SigningKeyStore,
    private readonly box: SecretBox,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly activationDelayMs: number,
  ) {}

  /**
   * Creates a key for each algorithm that has none yet (first start of a fresh database). Such
   * a key signs at once: no client can hold a JWKS of this server without it.
   */
  async ensureActiveKeys(): Promise<void> {
    for (const alg of SIGNING_ALGS) {
      if (!(await this.store.findNewest(alg))) {
        await this.store.insert(await this.newKey(alg, this.clock.now()));
        this.logger.info({ alg }, 'created signing key');
      }
    }
    this.cache = undefined;
  }

  /**
   * Adds a new key for each algorithm, published now and signing after the activation delay;
   * until then the previous keys keep signing. They keep verifying (and stay published) until
   * every token they signed has expired.
   *
   * `immediately` (a compromised key) makes the new keys sign at once: a client whose copy of
   * the JWKS predates the rotation may reject new tokens until its refetch cool-down (30 s in
   * jose and openid-client) has passed. Other processes switch when they reread the keys.
   */
  async rotate(options: { immediately?: boolean } = {}): Promise<RotatedKey[]> {
    const now = this.clock.now();
    const activatesAt = options.immediately ? now : now + this.activationDelayMs;
    const fresh = await Promise.all(SIGNING_ALGS.map((alg) => this.newKey(alg, now, activatesAt)));
    const result = await this.store.inTransaction(async (store) => {
      await store.lockForRotation();
      const rotated: RotatedKey[] = [];
      for (const row of fresh) {
        const previous = await store.findNewest(row.alg);
        await store.supersedeAll(row.alg, activatesAt, activatesAt + KEY_GRACE_PERIOD_MS);
        await store.insert(row);
        rotated.push({
          alg: row.alg,
          kid: row.kid,
          replaced: previous?.kid ?? null,
          activates_at: activatesAt,
        });
      }
      return rotated;
    });
    this.cache = undefined;
    this.logger.info({ keys: result }, 'rotated signing keys');
    return result;
  }

  /** Every published key with its state, read afresh from the database; oldest first per alg. */
  async list(): Promise<Array<KeyStatus & { public_jwk: PublicJwk }>> {
    const now = this.clock.now();
    return [...(await this.load(true)).values()]
      .map(({ row, publicJwk }) => ({
        kid: row.kid,
        alg: row.alg,
        state: keyState(row, now),
        activates_at: row.activates_at,
        superseded_at: row.superseded_at,
        retires_at: row.retire_after,
        public_jwk: publicJwk,
      }))
      .sort((a, b) => a.alg.localeCompare(b.alg) || a.activates_at - b.activates_at);
  }

  /** The key that signs new tokens of `alg`: the newest one activated and not yet superseded. */
  async signer(alg: SigningAlg): Promise<Signer> {
    const keys = await this.load();
    const now = this.clock.now();
    const active = [...keys.values()]
      .filter((key) => key.row.alg === alg && keyState(key.row, now) === 'active')
      .sort(
        (a, b) => b.row.activates_at - a.row.activates_at || b.row.created_at - a.row.created_at,
      )[0];
    if (!active) throw new Error(`no active ${alg} signing key; run ensureActiveKeys first`);
    active.privateKey ??= this.openPrivateKey(active.row);
    return { kid: active.row.kid, alg, key: active.privateKey };
  }

  /**
   * Opens the private half of every key that signs now, so that a KEY_ENCRYPTION_SECRET other
   * than the one that sealed them is named when a process starts (WrongKeyEncryptionSecret),
   * not at its first token request. A database without keys yet has nothing to check.
   */
  async confirmSecret(): Promise<void> {
    const now = this.clock.now();
    for (const key of (await this.load(true)).values()) {
      if (keyState(key.row, now) !== 'active') continue;
      key.privateKey ??= this.openPrivateKey(key.row);
    }
  }

  /**
   * The public key for `kid` and when it retires, or undefined when no verifiable key has that
   * id. Synchronous while the keys read last are fresh, so the hot path awaits nothing.
   */
  verificationKey(
    kid: string,
    alg: string,
  ): VerificationKey | undefined | Promise<VerificationKey | undefined> {
    const now = this.clock.now();
    const cache = this.cache;
    if (cache && now - cache.loadedAt < KEY_CACHE_TTL_MS) {
      const key = cache.keys.get(kid);
      if (key) return usableForVerification(key, alg, now);
    }
    return this.loadVerificationKey(kid, alg);
  }

  private async loadVerificationKey(
    kid: string,
    alg: string,
  ): Promise<VerificationKey | undefined> {
    let key = (await this.load()).get(kid);
    const now = this.clock.now();
    if (!key && now - this.lastMissReload >= MISS_RELOAD_INTERVAL_MS) {
      this.lastMissReload = now;
      key = (await this.load(true)).get(kid);
    }
    return key && usableForVerification(key, alg, now);
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
    if (!force && this.cache && now - this.cache.loadedAt < KEY_CACHE_TTL_MS)
      return this.cache.keys;
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
        publicKey: createPublicKey({ key: publicJwk as JsonWebKey, format: 'jwk' }),
      });
    }
    this.cache = { loadedAt: now, keys };
    return keys;
  }

  /** The private half, unsealed and imported once per process (a PKCS#8 PEM in the row). */
  private openPrivateKey(row: SigningKeyRow): KeyObject {
    return createPrivateKey(this.box.open(row.private_key_encrypted));
  }

  private async newKey(alg: SigningAlg, now: number, activatesAt = now): Promise<SigningKeyRow> {
    const { publicKey, privateKey } = await newKeyPair(alg);
    const jwk = publicKey.export({ format: 'jwk' }) as JWK;
    const kid = await calculateJwkThumbprint(jwk);
    const publicJwk: PublicJwk = { ...jwk, kid, alg, use: 'sig' };
    return {
      kid,
      alg,
      public_jwk: JSON.stringify(publicJwk),
      private_key_encrypted: this.box.seal(
        privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
      ),
      created_at: now,
      activates_at: activatesAt,
      superseded_at: null,
      retire_after: null,
    };
  }
}

const generate = promisify(generateKeyPair);

function newKeyPair(alg: SigningAlg): Promise<{ publicKey: KeyObject; privateKey: KeyObject }> {
  return alg === 'ES256'
    ? generate('ec', { namedCurve: 'P-256' })
    : generate('rsa', { modulusLength: 2048 });
}

function usableForVerification(
  key: LoadedKey,
  alg: string,
  now: number,
): VerificationKey | undefined {
  if (key.row.alg !== alg) return undefined;
  const retiresAt = key.row.retire_after;
  if (retiresAt !== null && retiresAt <= now) return undefined;
  return { key: key.publicKey, retiresAt };
}

/** A key superseded before its activation (by an immediate rotation) never signs. */
function keyState(row: SigningKeyRow, now: number): KeyState {
  if (row.superseded_at !== null && row.superseded_at <= Math.max(now, row.activates_at)) {
    return 'superseded';
  }
  return row.activates_at > now ? 'pending' : 'active';
}
