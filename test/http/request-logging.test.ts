import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import express from 'express';
import type { AddressInfo } from 'node:net';
import { loggablePath } from '../../src/http/logged-path.js';
import { requestContext } from '../../src/http/request-context.js';
import { createLogger } from '../../src/logging.js';

function capturedLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).trim().split('\n'));
      done();
    },
  });
  return { logger: createLogger('trace', sink), lines };
}

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
    assert.equal(loggablePath('/recordings/abc123'), '/recordings/:token');
    assert.equal(loggablePath('/lobby/interviewee/abc123/live'), '/lobby/interviewee/:token/live');
    assert.equal(loggablePath('/oauth/v2/tokens?code=abc123'), '/oauth/v2/tokens');
    assert.equal(loggablePath('http://host/recordings/abc123'), '/recordings/:token');
    assert.equal(loggablePath(''), '/');
    assert.equal(loggablePath('/recordings'), '/recordings');
    assert.equal(loggablePath('/recordings-old/abc123'), '/recordings-old/abc123');
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

  it('logs what an error is and its code, never the request content it carries', () => {
    const { logger, lines } = capturedLogger();
    const secret = 'c2VjcmV0LWNsaWVudC1zZWNyZXQtdmFsdWU';
    // As body-parser and HTTP clients make them: the raw body and the headers on the error.
    const parseError = Object.assign(new SyntaxError('Unexpected end of JSON input'), {
      type: 'entity.parse.failed',
      status: 400,
      body: `{"client_secret":"${secret}"`,
      headers: { authorization: `Basic ${secret}` },
    });
    const databaseError = Object.assign(new Error('insert into "users" - deadlock detected'), {
      code: '40P01',
      detail: `Failing row contains (${secret}).`,
    });
    logger.error({ err: new Error('wrapped', { cause: parseError }) }, 'first');
    logger.error({ err: databaseError }, 'second');
    const [first, second] = lines.map((line) => JSON.parse(line));
    assert.ok(!lines.join('\n').includes(secret));
    assert.match(first.err.message, /wrapped: Unexpected end of JSON input/);
    assert.equal(second.err.code, '40P01');
    assert.equal(second.err.type, 'Error');
    assert.match(second.err.stack, /deadlock detected/);
  });

  it('shows a request logged whole as its method and masked path, and redacts credentials', () => {
    const { logger, lines } = capturedLogger();
    const token = 'cmVjb3JkaW5nLXRva2VuLXZhbHVlLXNlY3JldA';
    logger.info(
      {
        req: {
          method: 'GET',
          url: `/recordings/${token}?code=${token}`,
          headers: { cookie: `hpa_session=${token}`, authorization: `Bearer ${token}` },
        },
        headers: { authorization: `Bearer ${token}`, cookie: `hpa_session=${token}` },
      },
      'whole request',
    );
    const line = JSON.parse(lines[0]!);
    assert.deepEqual(line.req, { method: 'GET', path: '/recordings/:token' });
    assert.deepEqual(line.headers, { authorization: '[redacted]', cookie: '[redacted]' });
    assert.ok(!lines[0]!.includes(token));
  });
});
