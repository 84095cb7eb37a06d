import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Router } from 'express';
import { renderGraphQLReference } from '../../scripts/build-graphql-reference.js';
import { createHttpApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { apiReferenceRouter } from '../../src/http/api-reference.js';
import { silentLogger } from '../support/logger.js';
import { TEST_KEY_ENCRYPTION_SECRET } from '../support/service.js';

describe('the API reference at /docs', () => {
  let server: Server;
  let base: string;
  const scratch = mkdtempSync(join(tmpdir(), 'graphql-reference-'));
  const graphqlReferenceFile = join(scratch, 'graphql-reference.html');

  before(async () => {
    writeFileSync(graphqlReferenceFile, renderGraphQLReference());
    const elsewhere = Router().get('/elsewhere', (_req, res) => {
      res.type('html').send('<p>another page</p>');
    });
    const app = createHttpApp({
      config: loadConfig({
        LOG_LEVEL: 'silent',
        KEY_ENCRYPTION_SECRET: TEST_KEY_ENCRYPTION_SECRET,
      }),
      checkWritable: async () => {},
      logger: silentLogger,
      isShuttingDown: () => false,
      routers: [
        apiReferenceRouter({ schemaHref: '/schema.graphql', graphqlReferenceFile }),
        elsewhere,
      ],
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server?.close();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('serves openapi.yaml as written', async () => {
    const response = await fetch(`${base}/docs/openapi.yaml`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/yaml/);
    const written = readFileSync(new URL('../../openapi.yaml', import.meta.url), 'utf8');
    assert.equal(await response.text(), written);
  });

  it('lets Redoc start its search worker from a blob: URL on that page alone', async () => {
    const page = await fetch(`${base}/docs`);
    const policy = page.headers.get('content-security-policy') ?? '';
    assert.match(policy, /worker-src 'self' blob:/);
    assert.match(policy, /script-src 'self'(;|$)/, 'no inline or evaluated script');
    assert.doesNotMatch(policy, /unsafe-eval/);
    if (page.status === 200) {
      const html = await page.text();
      assert.match(html, /<redoc spec-url="\/docs\/openapi\.yaml"><\/redoc>/);
      assert.match(html, /<script src="\/assets\/built\/redoc\.standalone\.js"><\/script>/);
    } else {
      assert.equal(page.status, 503, 'not built: the page says how to build it');
      assert.match(await page.text(), /npm run build/);
    }

    const other = await fetch(`${base}/elsewhere`);
    assert.doesNotMatch(other.headers.get('content-security-policy') ?? '', /worker-src|blob:/);
  });

  it('serves the GraphQL reference the build rendered, under the policy of every page', async () => {
    const page = await fetch(`${base}/docs/graphql`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.equal(await page.text(), readFileSync(graphqlReferenceFile, 'utf8'));
    const policy = page.headers.get('content-security-policy') ?? '';
    assert.match(policy, /script-src 'self'(;|$)/, 'its script is a file of ours');
    assert.doesNotMatch(policy, /worker-src|blob:/, "Redoc's exception is for /docs alone");
  });

  it('says how to build the GraphQL reference where it was not built, and where the SDL is', async () => {
    rmSync(graphqlReferenceFile);
    const page = await fetch(`${base}/docs/graphql`);
    assert.equal(page.status, 503);
    const html = await page.text();
    assert.match(html, /npm run build/);
    assert.match(html, /href="\/schema\.graphql"/);
  });
});
