import assert from 'node:assert/strict';
import { runProgram } from '../../src/cli/program.js';
import { testCliServices } from '../support/compose.js';
import { ManualClock } from '../../src/clock.js';
import { describeEachDialect } from '../support/databases.js';

const DELAY_MS = 120_000;

describeEachDialect('keys commands', (database) => {
  const clock = new ManualClock(Date.UTC(2026, 2, 1, 8));
  const iso = (epochMs: number) => new Date(epochMs).toISOString();

  async function run(...argv: string[]) {
    let stdout = '';
    let stderr = '';
    const io = {
      stdout: (text: string) => void (stdout += text),
      stderr: (text: string) => void (stderr += text),
    };
    const code = await runProgram(argv, io, async () => testCliServices(database().db, { clock }));
    assert.equal(code, 0, stderr);
    return stdout;
  }
  const listed = async () =>
    (
      JSON.parse(await run('--json', 'keys', 'list')).keys as Array<{
        kid: string;
        alg: string;
        state: string;
        activates_at: string;
        superseded_at: string | null;
        retires_at: string | null;
        public_jwk: { kid: string; d?: string };
      }>
    ).filter((key) => key.alg === 'ES256');

  it('lists each key with its state and activation, public halves only', async () => {
    const [first] = await listed();
    assert.equal(first!.state, 'active');
    assert.equal(first!.activates_at, iso(clock.now()));
    assert.equal(first!.superseded_at, null);
    assert.equal(first!.public_jwk.kid, first!.kid);
    assert.equal(first!.public_jwk.d, undefined, 'no private key material');

    const rotatedAt = clock.now();
    const rotation = await run('keys', 'rotate');
    assert.match(rotation, new RegExp(`Rotated ES256: new kid \\S+ \\(replaces ${first!.kid}\\)`));
    assert.match(rotation, new RegExp(`start signing at ${iso(rotatedAt + DELAY_MS)}`));

    const byKid = async (kid: string) => (await listed()).find((key) => key.kid === kid)!;
    const newKid = (await listed()).find((key) => key.kid !== first!.kid)!.kid;
    const [old, pending] = [await byKid(first!.kid), await byKid(newKid)];
    assert.deepEqual(
      [old!.kid, old!.state, old!.superseded_at],
      [first!.kid, 'active', iso(rotatedAt + DELAY_MS)],
    );
    assert.deepEqual(
      [pending!.state, pending!.activates_at],
      ['pending', iso(rotatedAt + DELAY_MS)],
    );
    const text = await run('keys', 'list');
    assert.match(
      text,
      new RegExp(`ES256  ${old!.kid}  active since .*, until ${iso(rotatedAt + DELAY_MS)}`),
    );
    assert.match(text, new RegExp(`ES256  ${pending!.kid}  pending, starts signing at`));

    clock.advance(DELAY_MS);
    const [superseded, active] = [await byKid(first!.kid), await byKid(newKid)];
    assert.equal(superseded!.state, 'superseded');
    assert.equal(active!.state, 'active');
    assert.match(
      await run('keys', 'list'),
      new RegExp(
        `ES256  ${superseded!.kid}  superseded at .*, leaves the JWKS at ${superseded!.retires_at}`,
      ),
    );
  });

  it('rotates immediately on request, warning that clients may briefly refuse new tokens', async () => {
    const text = await run('keys', 'rotate', '--immediately');
    assert.match(text, /The new keys sign now/);
    assert.match(text, /may\s+reject new tokens/);

    const rotation = JSON.parse(await run('--json', 'keys', 'rotate', '--immediately'));
    assert.equal(rotation.immediate, true);
    assert.ok(
      rotation.rotated.every(
        (key: { activates_at: string }) => key.activates_at === iso(clock.now()),
      ),
    );
    const active = (await listed()).filter((key) => key.state === 'active');
    assert.deepEqual(
      active.map((key) => key.kid),
      [rotation.rotated.find((key: { alg: string }) => key.alg === 'ES256').kid],
    );
    const [audit] = await database()
      .db('audit_events')
      .where({ type: 'signing_key.rotated' })
      .orderBy('id', 'desc')
      .limit(1);
    assert.match(String(audit.details), /"immediate":true/);
  });
});
