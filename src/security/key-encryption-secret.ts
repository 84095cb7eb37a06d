import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { databaseDirectory } from '../db/database.js';
import { randomToken } from './random.js';

/**
 * The secret that encrypts signing keys and lobby tokens at rest. Production must set
 * KEY_ENCRYPTION_SECRET (config refuses to start without it). Elsewhere, so that a fresh clone
 * starts with one command, a random secret is created once beside the SQLite file, readable
 * only by its owner, and reused on later starts.
 */
export function resolveKeyEncryptionSecret(config: Config, logger: Logger): string {
  if (config.keyEncryptionSecret) return config.keyEncryptionSecret;
  const directory = databaseDirectory(config.database) ?? './data';
  const file = `${directory}/key-encryption-secret`;
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(directory, { recursive: true });
  writeFileSync(file, `${randomToken(32)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  logger.warn(
    { file },
    'KEY_ENCRYPTION_SECRET is not set: generated a development secret; set the variable in production',
  );
  return readFileSync(file, 'utf8').trim();
}
