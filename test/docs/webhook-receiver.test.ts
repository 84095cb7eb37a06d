import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { ENVELOPE_CONTENT_TYPE, envelopeJson } from '../../src/webhooks/envelope.js';
import { newMessageId } from '../../src/webhooks/outbox.js';
import { newEndpointSecret, signDelivery } from '../../src/webhooks/signature.js';
import { readmeSection } from './readme.js';

/**
 * The README's webhook receiver, run as written: it accepts a signed delivery once, answers a
 * retry without handling it twice, and refuses a delivery signed with another secret.
 */
describe('README: the webhook receiver example', function () {
  this.timeout(30_000);
  // Inside node_modules, so that the example's imports resolve to the installed packages.
  const dir = fileURLToPath(
    new URL('../../node_modules/.cache/readme-webhook-receiver/', import.meta.url),
  );
  const secret = newEndpointSecret();
  let receiver: ChildProcess;
  let port: number;
  let output = '';

  before(async () => {
    const code = /```js\n([\s\S]*?)```/.exec(readmeSection('Webhooks'))?.[1];
    assert.ok(code, 'the Webhooks section has a js block');
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${dir}receiver.mjs`, code);
    port = await freePort();
    receiver = spawn(process.execPath, [`${dir}receiver.mjs`], {
      env: { ...process.env, WEBHOOK_SECRET: secret, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    receiver.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitUntilListening(port);
  });
  after(() => {
    receiver?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  async function send(signingSecret: string, messageId = newMessageId()) {
    const body = envelopeJson({
      messageId,
      source: 'https://api.example.test',
      type: 'interview.interviewee.checked_in.v1',
      subject: 'event-1',
      time: Date.now(),
      sequence: 3,
      data: { eventId: 'event-1', employerId: 'emp-1', status: 'STARTED' },
    });
    const headers = signDelivery(messageId, Math.floor(Date.now() / 1000), body, [signingSecret]);
    const response = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      headers: { ...headers, 'content-type': ENVELOPE_CONTENT_TYPE },
      body,
    });
    return { status: response.status, messageId };
  }

  it('handles a delivery once, answers its retry, refuses a wrong signature', async () => {
    const first = await send(secret);
    assert.equal(first.status, 204);
    assert.equal((await send(secret, first.messageId)).status, 204);
    assert.equal((await send(newEndpointSecret())).status, 400);
    await until(() => output.includes('\n'));
    // Give a wrongly handled retry the time to show up.
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.deepEqual(output.trim().split('\n'), [
      'interview.interviewee.checked_in.v1 event-1 0000000003 ' +
        '{"eventId":"event-1","employerId":"emp-1","status":"STARTED"}',
    ]);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

async function waitUntilListening(port: number): Promise<void> {
  await until(async () => {
    try {
      await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}' });
      return true;
    } catch {
      return false;
    }
  });
}

async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
