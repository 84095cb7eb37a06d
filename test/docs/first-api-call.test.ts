import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { freePort } from '../support/service.js';
import {
  blockWith,
  readmeSection,
  readmeService,
  runInOneShell,
  serverEnvironment,
  shellBlocks,
} from './readme.js';

/**
 * The README's "First API call in five minutes", run as written: every ```sh block after the
 * start command, in one bash session, against a service this test starts on a fresh SQLite
 * database. Only `BASE` and the server's environment come from the test.
 */
describe('README: first API call in five minutes [sqlite]', function () {
  this.timeout(300_000);
  // No migration: like a fresh clone, the service prepares its own database.
  const { database, service } = readmeService();
  const blocks = shellBlocks(readmeSection('First API call in five minutes'));

  it('starts the service with the quick start command', () => {
    const quickStart = shellBlocks(readmeSection('Quick start'))[0]!.split('\n')[0]!;
    assert.equal(blocks[0]!.trim(), quickStart.replace(/#.*$/, '').trim());
  });

  it('gets a token, schedules an interview and finds it, with the commands as written', async () => {
    const rest = blocks.slice(1);
    const outputs = await runInOneShell(rest, serverEnvironment(database(), service()));
    const output = (marker: string) => outputs[rest.indexOf(blockWith(rest, marker))]!;

    assert.match(output('app create'), /^employer [0-9a-f-]{36}, app [0-9a-f]+$/m);
    assert.match(output('grant_type=client_credentials'), /^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);

    const created = JSON.parse(output('createVirtualInterviewEvent'));
    const event = created.data?.createVirtualInterviewEvent?.event;
    assert.ok(event?.id, JSON.stringify(created));
    assert.equal(event.title, 'First round');
    assert.equal(event.status, 'SCHEDULED');
    assert.ok(event.interviewerLobbyUrl.startsWith(`${service().url}/lobby/interviewer/`));

    const found = JSON.parse(output('findVirtualInterviewEvents'));
    const page = found.data?.findVirtualInterviewEvents;
    assert.ok(page, JSON.stringify(found));
    assert.equal(page.totalCount, 1);
    assert.deepEqual(
      page.events.map((each: { id: string }) => each.id),
      [event.id],
    );
  });

  it('with a wrong BASE, the token step says the connection failed, without a stack trace', async () => {
    const rest = blocks.slice(1);
    const script = [blockWith(rest, 'field()'), blockWith(rest, 'grant_type=client_credentials')];
    const { stdout, stderr } = await promisify(execFile)('bash', ['-c', script.join('\n')], {
      env: {
        PATH: process.env.PATH ?? '',
        BASE: `http://127.0.0.1:${await freePort()}`,
        CLIENT_ID: 'client',
        CLIENT_SECRET: 'secret',
        EMPLOYER_ID: 'employer',
      },
    });
    assert.match(stderr, /Couldn't connect to server|Connection refused/);
    assert.match(stderr, /^no access_token in: \(nothing\)$/m);
    assert.doesNotMatch(stderr + stdout, /^\s+at /m, 'no stack trace');
  });
});
