import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;

/**
 * A sealed value that does not open under this box's key: almost always because
 * KEY_ENCRYPTION_SECRET is not the secret it was sealed with (tampering looks the same).
 */
export class WrongKeyEncryptionSecret extends Error {
  override name = 'WrongKeyEncryptionSecret';

  constructor(readonly purpose: string) {
    super(
      `KEY_ENCRYPTION_SECRET is not the secret that encrypted this database's ${purpose}: run ` +
        'with the KEY_ENCRYPTION_SECRET of the server that created them (outside production, ' +
        'without the variable, the key-encryption-secret file beside the SQLite database is used)',
    );
  }
}

/**
 * Authenticated encryption (AES-256-GCM) of small secrets at rest: private signing keys and
 * lobby capability tokens. Each purpose derives its own key from KEY_ENCRYPTION_SECRET with
 * HKDF, so a ciphertext of one purpose never opens under another.
 * Sealed form: `v1.<iv>.<ciphertext>.<tag>`, each part base64url.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(
    secret: string,
    private readonly purpose: string,
  ) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'hiring-partner-api', purpose, 32));
  }

  seal(plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return [VERSION, iv, ciphertext, cipher.getAuthTag()]
      .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
      .join('.');
  }

  /**
   * Throws when the value was not sealed by this box: WrongKeyEncryptionSecret when it does not
   * authenticate (another secret, purpose, or tampering).
   */
  open(sealed: string): string {
    const [version, iv, ciphertext, tag] = sealed.split('.');
    if (version !== VERSION || !iv || ciphertext === undefined || !tag) {
      throw new Error('not a sealed value');
    }
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    try {
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      // GCM's only failure here: "Unsupported state or unable to authenticate data".
      throw new WrongKeyEncryptionSecret(this.purpose.replace(/-/g, ' '));
    }
  }
}
