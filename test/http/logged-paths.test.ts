import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import type { Express } from 'express';
import { loadConfig } from '../../src/config.js';
import { emailLinkUrls } from '../../src/console/paths.js';
import { CAPABILITY_PREFIXES } from '../../src/http/logged-path.js';
import { LOBBY_PATHS, lobbyUrl } from '../../src/interviews/lobby-links.js';
import { recordingUrl } from '../../src/recordings/recording-tokens.js';
import { startService } from '../../src/server.js';
import { describeEachDialect } from '../support/databases.js';
import { LiveClient } from '../support/live-client.js';
import { silentLogger } from '../support/logger.js';
import { startServiceProcess, type ServiceProcess } from '../support/service-process.js';
import { TEST_KEY_ENCRYPTION_SECRET, freePort } from '../support/service.js';

interface RouteLayer {
  route?: { path: string | string[]; methods: Record<string, boolean> };
  handle?: { stack?: RouteLayer[] };
}

/** Every route pattern the app mounts, with its methods (routers are mounted at the root). */
function routesOf(app: Express): Array<{ path: string; methods: string[] }> {
  const found: Array<{ path: string; methods: string[] }> = [];
  const walk = (stack: RouteLayer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = [layer.route.path].flat();
        const methods = Object.keys(layer.route.methods).filter((method) => method !== '_all');
        for (const path of paths) found.push({ path, methods: methods.length ? methods : ['get'] });
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack);
      }
    }
  };
  walk((app as unknown as { router: { stack: RouteLayer[] } }).router.stack);
  return found;
}

const newToken = () => randomBytes(32).toString('base64url');

/**
 * Issue 18 item 5: every route whose path carries a capability token (`:token`), every URL the
 * link builders make, and the spellings Express also routes there, are requested; each request's
 * log line names its path with the token masked, and no token appears anywhere in the log. A new
 * capability route that CAPABILITY_PREFIXES does not cover fails here.
 */
describeEachDialect(
  'logged paths: every capability route is masked (production cluster)',
  (database) => {
    let service: ServiceProcess | undefined;
    let routes: Array<{ path: string; methods: string[] }> = [];
    const log = () => service!.output();

    before(async function () {
      this.timeout(120_000);
      // The routes as the app mounts them, read from the service composed in this process.
      const port = String(await freePort());
      const composed = await startService({
        config: {
          ...loadConfig({
            HOST: '127.0.0.1',
            PORT: port,
            KEY_ENCRYPTION_SECRET: TEST_KEY_ENCRYPTION_SECRET,
            SWEEP_INTERVAL_MS: '0',
          }),
          database: database().config,
        },
        logger: silentLogger,
        // The listener is then the Express app itself, which mounts every route either way.
        fastRoutes: false,
      });
      routes = routesOf(composed.server.listeners('request')[0] as Express);
      await composed.stop();
      service = await startServiceProcess(database(), { LOG_LEVEL: 'trace' }, 'cluster', {
        keepOutput: 'all',
      });
    });
    after(async () => {
      await service?.stop();
    });

    /** Sends one request and answers its access-log line. */
    async function logged(method: string, path: string): Promise<{ path: string; status: number }> {
      const id = `logged-${randomBytes(6).toString('hex')}`;
      const response = await fetch(`${service!.url}${path}`, {
        method: method.toUpperCase(),
        headers: { 'x-request-id': id, 'content-type': 'application/x-www-form-urlencoded' },
        body: ['get', 'head'].includes(method) ? undefined : 'a=b',
      });
      await response.arrayBuffer();
      const line = await lineOf(id);
      return { path: line.path, status: line.status };
    }

    /** The access-log line of a request, once the worker that answered it has written it. */
    async function lineOf(id: string): Promise<{ path: string; status: number }> {
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline) {
        const text = log()
          .split('\n')
          .find(
            (line) => line.includes(`"requestId":"${id}"`) && line.includes('"request completed"'),
          );
        if (text) return JSON.parse(text);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.fail(`no log line for request ${id}`);
    }

    it('masks the token of every :token route the app mounts, whatever the route answers', async () => {
      const capabilityRoutes = routes.filter((route) => route.path.includes(':token'));
      const patterns = new Set(capabilityRoutes.map((route) => route.path));
      // The walk found the app's routes (a change of Express internals would find none).
      for (const known of [
        '/recordings/:token',
        '/interviews/:token',
        '/lobby/interviewer/:token/admit',
        '/lobby/interviewee/:token/check-in',
        '/lobby/interviewer/:token/recordings/:id/chunks/:seq',
        '/console/verify-email/:token',
        '/console/reset-password/:token',
      ]) {
        assert.ok(patterns.has(known), `${known} is among the routes found`);
      }
      const tokens: string[] = [];
      const unmasked: string[] = [];
      for (const route of capabilityRoutes) {
        for (const method of route.methods) {
          const token = newToken();
          tokens.push(token);
          const path = route.path.replace(':token', token).replace(/:(\w+)/g, '$1-1');
          const line = await logged(method, path);
          const expected = route.path.replace(/:(?!token\b)(\w+)/g, '$1-1');
          if (line.path !== expected) unmasked.push(`${method} ${route.path}: ${line.path}`);
        }
      }
      const leaked = tokens.filter((token) => log().includes(token));
      console.log(
        `      ${capabilityRoutes.length} :token routes requested: ${unmasked.length} logged ` +
          `without their mask, ${leaked.length} tokens in the log`,
      );
      assert.deepEqual(unmasked, []);
      assert.deepEqual(leaked, []);
    });

    it('masks every URL the link builders make, and the spellings that route to the same place', async () => {
      const base = service!.url;
      const tokens: string[] = [];
      const token = () => {
        tokens.push(newToken());
        return tokens.at(-1)!;
      };
      const built: Array<{ url: string; masked: string }> = [];
      for (const role of Object.keys(LOBBY_PATHS) as Array<keyof typeof LOBBY_PATHS>) {
        built.push({ url: lobbyUrl(base, role, token()), masked: `${LOBBY_PATHS[role]}/:token` });
        built.push({
          url: `${lobbyUrl(base, role, token())}/no-such-page`,
          masked: `${LOBBY_PATHS[role]}/:token/no-such-page`,
        });
      }
      built.push({ url: recordingUrl(base, token()), masked: '/recordings/:token' });
      // Every mailed link that carries a token (the others are plain pages).
      for (const link of Object.values(emailLinkUrls(base))) {
        if (typeof link !== 'function') continue;
        const url = link(token());
        built.push({ url, masked: `${new URL(url).pathname.replace(/\/[^/]+$/, '')}/:token` });
      }
      const recording = newToken();
      const spellings = [
        { path: `/RECORDINGS/${recording}`, masked: '/RECORDINGS/:token' },
        { path: `//recordings/${recording}`, masked: '//recordings/:token' },
        { path: `/%72ecordings/${recording}`, masked: '/%72ecordings/:token' },
        { path: `/recordings/${recording}/`, masked: '/recordings/:token/' },
        { path: `/recordings/${recording}?token=${recording}`, masked: '/recordings/:token' },
        {
          path: `/Lobby/Interviewer/${recording}/admit`,
          masked: '/Lobby/Interviewer/:token/admit',
        },
        { path: `/console/sign-in?code=${recording}`, masked: '/console/sign-in' },
      ];
      const problems: string[] = [];
      for (const { url, masked } of built) {
        const path = new URL(url).pathname;
        const line = await logged('get', path);
        if (line.path !== masked) problems.push(`${path}: ${line.path}`);
      }
      for (const { path, masked } of spellings) {
        const line = await logged('get', path);
        if (line.path !== masked) problems.push(`${path}: ${line.path}`);
      }

      // An absolute-form request target routes by its path too.
      const absolute = await rawRequest(
        service!,
        `GET http://elsewhere.example/recordings/${recording} HTTP/1.1\r\nHost: x\r\n` +
          'X-Request-Id: absolute-form\r\nConnection: close\r\n\r\n',
      );
      assert.match(absolute, /^HTTP\/1\.1 404/);
      const absoluteLine = await lineOf('absolute-form');
      if (absoluteLine.path !== '/recordings/:token')
        problems.push(`absolute: ${absoluteLine.path}`);

      // The room's live sockets: refused upgrades are not request lines, and say no token either.
      for (const role of ['interviewer', 'interviewee'] as const) {
        const answer = await LiveClient.open(`${lobbyUrl(base, role, recording)}/live`);
        assert.ok(!(answer instanceof LiveClient));
      }
      const leaked = [...tokens, recording].filter((value) => log().includes(value));
      console.log(
        `      ${built.length + spellings.length + 1} built links and spellings: ` +
          `${problems.length} logged without their mask, ${leaked.length} tokens in the log`,
      );
      assert.deepEqual(problems, []);
      assert.deepEqual(leaked, []);
    });

    it('names the path a request asked for, when a router mounted at a prefix answered it', async () => {
      assert.deepEqual(await logged('post', '/oauth/v2/tokens'), {
        path: '/oauth/v2/tokens',
        status: 400,
      });
      assert.equal((await logged('post', '/graphql')).path, '/graphql');
      assert.equal((await logged('get', '/console/no-such-page')).path, '/console/no-such-page');
    });

    it('lists one prefix per kind of capability URL', () => {
      assert.deepEqual([...CAPABILITY_PREFIXES].sort(), [
        '/console/reset-password',
        '/console/verify-email',
        '/interviews',
        '/lobby/interviewee',
        '/lobby/interviewer',
        '/recordings',
      ]);
    });
  },
);

function rawRequest(service: ServiceProcess, text: string): Promise<string> {
  const port = Number(new URL(service.url).port);
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}
