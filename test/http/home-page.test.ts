import assert from 'node:assert/strict';
import { describeEachDialect } from '../support/databases.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';

/** The `href`s of a page's links (`<a>` and `<link>`). */
function hrefs(html: string): string[] {
  return [...html.matchAll(/<(?:a|link)\b[^>]*\bhref="([^"]+)"/g)].map((match) => match[1]!);
}

/**
 * Issue 18, newcomer fixes: `GET /` is a page pointing to the console, the API reference and,
 * outside production, the development outbox; every page has an icon, and `/favicon.ico` (what
 * a browser asks for on a page without one, such as a JSON answer) is served.
 */
describeEachDialect('the home page and the icon', (database) => {
  describe('the production default (2-worker cluster)', () => {
    let service: ServiceProcess;
    before(async function () {
      this.timeout(180_000);
      service = await startServiceProcess(database(), {}, 'cluster');
    });
    after(async () => {
      await service?.stop();
    });

    it('GET / is an HTML page linking to the console and both references, not to the outbox', async () => {
      const response = await fetch(`${service.url}/`);
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      const links = hrefs(await response.text());
      assert.ok(links.includes('/console'), links.join(' '));
      assert.ok(links.includes('/docs'), links.join(' '));
      assert.ok(links.includes('/docs/graphql'), links.join(' '));
      assert.ok(!links.some((href) => href.includes('outbox')), 'no outbox in production');
      for (const href of ['/console', '/docs', '/docs/graphql']) {
        assert.equal((await fetch(`${service.url}${href}`)).status, 200, href);
      }
      assert.equal((await fetch(`${service.url}/`, { method: 'HEAD' })).status, 200);
    });

    it('serves /favicon.ico, and every page layout links its icon', async () => {
      const icon = await fetch(`${service.url}/favicon.ico`);
      assert.equal(icon.status, 200);
      assert.match(icon.headers.get('content-type') ?? '', /^image\//);
      assert.ok((await icon.arrayBuffer()).byteLength > 0);
      // The authorization pages' layout, the console's, and the API references.
      for (const page of ['/', '/console/sign-in', '/docs', '/docs/graphql']) {
        const html = await (await fetch(`${service.url}${page}`)).text();
        const iconHref = /<link rel="icon"[^>]*href="([^"]+)"/.exec(html)?.[1];
        assert.ok(iconHref, `${page} links no icon`);
        const linked = await fetch(`${service.url}${iconHref}`);
        assert.equal(linked.status, 200, `${page}: ${iconHref}`);
        assert.match(linked.headers.get('content-type') ?? '', /^image\//);
      }
      assert.deepEqual(service.crashes(), []);
    });
  });

  describe('development (NODE_ENV unset, one process)', () => {
    let service: ServiceProcess;
    before(async function () {
      this.timeout(120_000);
      service = await startServiceProcess(database(), {}, 'process');
    });
    after(async () => {
      await service?.stop();
    });

    it('GET / also links the development outbox', async () => {
      const response = await fetch(`${service.url}/`);
      assert.equal(response.status, 200);
      const links = hrefs(await response.text());
      assert.ok(links.includes('/console/dev/outbox'), links.join(' '));
    });
  });
});
