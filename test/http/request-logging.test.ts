import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { loggablePath, requestContext } from '../../src/http/request-context.js';
import { createLogger } from '../../src/logging.js';

describe('request logging', () => {
  it('masks capability tokens in logged paths', () => {
    assert.equal(
      loggablePath('/lobby/interviewer/abc123/admit'),
      '/lobby/interviewer/:token/admit',
    );
    assert.equal(loggablePath('/lobby/interviewee/abc123'), '/lobby/interviewee/:token');
    assert.equal(loggablePath('/interviews/abc123'), '/interviews/:token');
    assert.equal(loggablePath('/console/verify-email/abc123'), '/console/verify-email/:token');
    assert.equal(loggablePath('/console/reset-password/abc123'), '/console/reset-password/:token');
    assert.equal(loggablePath('/oauth/v2/tokens'), '/oauth/v2/tokens');
  });

  it('writes one line per request with its id, and never the token or the query string', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...String(chunk).trim().split('\n'));
        done();
      },
    });
    const app = express();
    app.use(requestContext(createLogger('info', sink)));
    app.get('/lobby/interviewee/:token', (_req, res) => void res.send('ok'));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const secret = 'Zm9vYmFyYmF6cXV4c2VjcmV0dG9rZW4';
      const response = await fetch(
        `http://127.0.0.1:${port}/lobby/interviewee/${secret}?code=abc`,
        {
          headers: { 'X-Request-Id': 'req-7' },
        },
      );
      assert.equal(response.status, 200);
      await new Promise((resolve) => setTimeout(resolve, 20));
      const line = JSON.parse(lines.find((text) => text.includes('request completed'))!);
      assert.equal(line.requestId, 'req-7');
      assert.equal(line.path, '/lobby/interviewee/:token');
      assert.ok(!lines.join('\n').includes(secret));
      assert.ok(!lines.join('\n').includes('code=abc'));
    } finally {
      server.close();
    }
  });
});
