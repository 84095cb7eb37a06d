import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify } from 'jose';
import { parseCompact, signCompact, verifiesWith } from '../../src/oauth/tokens/compact-jws.js';

const es256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const rs256 = generateKeyPairSync('rsa', { modulusLength: 2048 });
const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('compact JWS on node:crypto KeyObjects', () => {
  it('signs ES256 and RS256 tokens that jose verifies, header and claims as given', async () => {
    for (const [alg, pair] of [
      ['ES256', es256],
      ['RS256', rs256],
    ] as const) {
      const header = { alg, kid: 'k1', typ: 'at+jwt' };
      const claims = { sub: 'app:1', iss: 'https://auth.example', iat: 1, exp: 4e9, jti: 'j' };
      const token = signCompact(alg, pair.privateKey, header, claims);
      assert.deepEqual(decodeProtectedHeader(token), header);
      assert.deepEqual(decodeJwt(token), claims);
      const key = await importJWK(pair.publicKey.export({ format: 'jwk' }), alg);
      await jwtVerify(token, key, { algorithms: [alg] });
      const parsed = parseCompact(token);
      assert.ok(parsed && verifiesWith(alg, pair.publicKey, parsed));
    }
  });

  it('refuses what is not exactly three canonical base64url parts with an object header', () => {
    const token = signCompact('ES256', es256.privateKey, { alg: 'ES256' }, { a: 1 });
    const [header, payload, signature] = token.split('.') as [string, string, string];
    assert.ok(parseCompact(token));
    const refused = [
      `${header}.${payload}`,
      `${token}.${signature}`,
      `${header}=.${payload}.${signature}`,
      `${header}.${payload}.${signature.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))}x`,
      `${header.replaceAll('-', '+')}.${payload}.${signature}+`,
      `${part([1, 2])}.${payload}.${signature}`,
      `${part(null)}.${payload}.${signature}`,
      `${part('text')}.${payload}.${signature}`,
      `${Buffer.from([0xff, 0xfe]).toString('base64url')}.${payload}.${signature}`,
      `${header}..${signature}`,
      `${header}.${payload}.`,
    ];
    for (const candidate of refused) assert.equal(parseCompact(candidate), undefined, candidate);
    // An ES256 signature (64 bytes) ends in a character with four unused bits: setting one
    // decodes to the same bytes, but is not the canonical form.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const last = alphabet.indexOf(signature.at(-1)!);
    const stray = signature.slice(0, -1) + alphabet[last ^ 1]!;
    assert.deepEqual(Buffer.from(stray, 'base64url'), Buffer.from(signature, 'base64url'));
    assert.equal(parseCompact(`${header}.${payload}.${stray}`), undefined);
  });

  it('does not verify a signature of another key, of the wrong length or for another algorithm', () => {
    const token = signCompact('ES256', es256.privateKey, { alg: 'ES256' }, { a: 1 });
    const parsed = parseCompact(token)!;
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    assert.equal(verifiesWith('ES256', other.publicKey, parsed), false);
    assert.equal(
      verifiesWith('ES256', es256.publicKey, {
        ...parsed,
        signature: parsed.signature.subarray(1),
      }),
      false,
    );
    assert.equal(verifiesWith('RS256', es256.publicKey, parsed), false);
  });
});
