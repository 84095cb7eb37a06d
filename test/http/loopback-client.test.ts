import assert from 'node:assert/strict';
import { isLoopbackAddress, isLoopbackClient } from '../../src/http/loopback-client.js';

const from = (remoteAddress: string, headers: Record<string, string | string[]> = {}) => ({
  socket: { remoteAddress },
  headers,
});

describe('loopback clients (the development outbox)', () => {
  it('knows the loopback addresses, also IPv4-mapped, and nothing else', () => {
    for (const address of [
      '127.0.0.1',
      '127.1.2.3',
      '::1',
      '0:0:0:0:0:0:0:1',
      '::ffff:127.0.0.1',
    ]) {
      assert.ok(isLoopbackAddress(address), address);
    }
    for (const address of [
      '192.0.2.2',
      '::ffff:192.0.2.2',
      '::',
      '::2',
      'fd00::1',
      '',
      'localhost',
    ]) {
      assert.ok(!isLoopbackAddress(address), address);
    }
  });

  it('is decided by the socket; forwarding headers can refuse, never admit', () => {
    assert.ok(isLoopbackClient(from('127.0.0.1')));
    assert.ok(isLoopbackClient(from('::ffff:127.0.0.1', { 'x-forwarded-for': '127.0.0.1, ::1' })));
    assert.ok(isLoopbackClient(from('::1', { forwarded: 'for="[::1]:4711";proto=http' })));
    assert.ok(!isLoopbackClient(from('192.0.2.2', { 'x-forwarded-for': '127.0.0.1' })));
    assert.ok(
      !isLoopbackClient(
        from('192.0.2.2', { forwarded: 'for=127.0.0.1', 'x-real-ip': '127.0.0.1' }),
      ),
    );
    assert.ok(
      !isLoopbackClient(from('127.0.0.1', { 'x-forwarded-for': '127.0.0.1, 203.0.113.7' })),
    );
    assert.ok(
      !isLoopbackClient(from('127.0.0.1', { 'x-forwarded-for': ['127.0.0.1', '203.0.113.7'] })),
    );
    assert.ok(!isLoopbackClient(from('127.0.0.1', { forwarded: 'for=203.0.113.7:80' })));
    assert.ok(!isLoopbackClient(from('127.0.0.1', { forwarded: 'by=127.0.0.1' })), 'no for=');
    assert.ok(!isLoopbackClient(from('127.0.0.1', { 'x-real-ip': 'unknown' })));
    assert.ok(!isLoopbackClient(from('127.0.0.1', { 'x-forwarded-for': '' })));
    assert.ok(!isLoopbackClient(from('')));
  });
});
