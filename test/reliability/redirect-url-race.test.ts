import assert from 'node:assert/strict';
import { openDatabase, type Database } from '../../src/db/database.js';
import { runConcurrently, tally } from '../support/concurrency.js';
import { ConsoleClient, formCsrfToken, locationOf } from '../support/console-client.js';
import { silentLogger } from '../support/logger.js';
import { RAISED_RATE_LIMITS } from '../support/service-process.js';
import {
  describeEachDeployment,
  startDeployment,
  type RunningDeployment,
} from '../support/deployments.js';
import { uniqueEmail } from '../support/write-load.js';

const PASSWORD = 'correct horse battery staple';
const FIRST = 'https://partner.example.com/first';
const ATTEMPTS = 8;
const LIMIT = 5;

async function stored(db: Database, clientId: string) {
  const app = await db('apps').where({ client_id: clientId }).first();
  const uris: Array<{ uri: string }> = await db('app_redirect_uris')
    .where({ app_id: app.id })
    .orderBy('position');
  const audit: Array<{ type: string; details: string }> = await db('audit_events')
    .where({ app_id: app.id })
    .whereIn('type', ['app.redirect_uri_added', 'app.redirect_uri_removed'])
    .orderBy('id');
  return {
    uris: uris.map((row) => row.uri),
    audit: audit.map((row) => ({
      type: row.type,
      uri: (JSON.parse(row.details) as { redirect_uri: string }).redirect_uri,
    })),
  };
}

/**
 * Eight redirect URLs added at once to an app with room for five (a double-submitting script,
 * several tabs): exactly five are added, the others get the limit's error page, never a server
 * error; each accepted change has exactly one audit entry; the next change works; and all of it
 * is still there when the database is opened again.
 */
describeEachDeployment(
  'reliability: redirect URLs added at once beyond the limit',
  (database, deployment) => {
    let service: RunningDeployment | undefined;

    before(async () => {
      service = await startDeployment(database(), deployment, RAISED_RATE_LIMITS);
    });
    after(async () => {
      await service?.stop();
    });

    it('adds exactly up to the limit, audits each once, and keeps them', async () => {
      const owner = new ConsoleClient(service!.url);
      await owner.signUp(uniqueEmail('redirects'), PASSWORD);
      const created = await owner.submit('/console/apps/new', '/console/apps/new', {
        name: 'Redirect race',
        client_type: 'confidential',
        redirect_uri_1: FIRST,
        grant_types: ['', 'client_credentials'],
      });
      assert.equal(created.status, 303, created.body);
      const base = locationOf(created).replace(/\/credentials$/, '');
      const clientId = base.split('/').pop()!;
      const page = `${base}/redirect-urls`;

      // A client-credentials app may have none: empty the list, so eight adds compete for five.
      const emptied = await owner.submit(`${page}/1/remove`, `${page}/1/remove`, {
        confirm: 'yes',
        redirect_uri: FIRST,
      });
      assert.equal(emptied.status, 303, emptied.body);

      const csrf = formCsrfToken((await owner.get(page)).body, page);
      const candidates = Array.from(
        { length: ATTEMPTS },
        (_, index) => `https://partner.example.com/callback/${index}`,
      );
      const outcomes = await runConcurrently(ATTEMPTS, ATTEMPTS, (index) =>
        owner.post(page, { csrf_token: csrf, redirect_uri: candidates[index]! }),
      );
      const answers = outcomes.map((outcome) => {
        assert.equal(
          outcome.status,
          'fulfilled',
          String((outcome as PromiseRejectedResult).reason),
        );
        return (outcome as PromiseFulfilledResult<Awaited<ReturnType<ConsoleClient['post']>>>)
          .value;
      });
      assert.deepEqual(
        tally(answers, (answer) => String(answer.status)),
        { '303': LIMIT, '400': ATTEMPTS - LIMIT },
      );
      for (const refused of answers.filter((answer) => answer.status === 400)) {
        assert.match(refused.body, /An app can register at most 5 redirect URIs/);
        assert.match(refused.body, /<div class="error-summary" id="error-summary" role="alert">/);
      }
      const accepted = candidates.filter((_, index) => answers[index]!.status === 303);

      let state = await stored(database().db, clientId);
      assert.deepEqual([...state.uris].sort(), [...accepted].sort());
      assert.deepEqual(
        state.audit,
        [
          { type: 'app.redirect_uri_removed', uri: FIRST },
          ...state.uris.map((uri) => ({ type: 'app.redirect_uri_added', uri })),
        ],
        'one audit entry per accepted change, in the order they were made',
      );

      // The next changes work: remove one (through its confirmation), then add another.
      const gone = state.uris[0]!;
      const removed = await owner.submit(`${page}/1/remove`, `${page}/1/remove`, {
        confirm: 'yes',
        redirect_uri: gone,
      });
      assert.equal(removed.status, 303, removed.body);
      const added = await owner.submit(page, page, {
        redirect_uri: 'https://partner.example.com/z',
      });
      assert.equal(added.status, 303, added.body);
      const expected = [...state.uris.slice(1), 'https://partner.example.com/z'];
      state = await stored(database().db, clientId);
      assert.deepEqual(state.uris, expected);
      assert.equal(state.audit.length, 1 + LIMIT + 2);

      // Every acknowledged change is there when the database is opened again.
      await service!.stop();
      service = undefined;
      const reopened = openDatabase(database().config, silentLogger);
      try {
        assert.deepEqual(await stored(reopened, clientId), state);
      } finally {
        await reopened.destroy();
      }
    });
  },
);
