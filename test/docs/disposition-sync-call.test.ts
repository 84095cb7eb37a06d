import assert from 'node:assert/strict';
import { withoutCost } from '../support/graphql-client.js';
import {
  blockWith,
  readmeSection,
  readmeService,
  runInOneShell,
  serverEnvironment,
  shellBlocks,
} from './readme.js';

/**
 * The README's Disposition Sync first call, run as written in the shell of the first API call
 * (its `BASE`, `field` and the app it creates), against a service of its own.
 */
describe('README: Disposition Sync, a first call [sqlite]', function () {
  this.timeout(300_000);
  const { database, service } = readmeService();

  it('enables the API, sends two dispositions and reads back the one stored', async () => {
    const firstCall = shellBlocks(readmeSection('First API call in five minutes'));
    const own = shellBlocks(readmeSection('Disposition Sync'));
    const blocks = [blockWith(firstCall, 'field()'), blockWith(firstCall, 'app create'), ...own];
    const outputs = await runInOneShell(blocks, serverEnvironment(database(), service()));
    // The answer, without the cost every answer carries (the README leaves it out).
    const lastLine = (marker: string) =>
      withoutCost(
        JSON.parse(outputs[blocks.indexOf(blockWith(blocks, marker))]!.trim().split('\n').at(-1)!),
      );

    assert.deepEqual(lastLine('partnerDisposition {'), {
      data: {
        partnerDisposition: {
          send: {
            numberGoodDispositions: 1,
            failedDispositions: [
              {
                identifiedBy: { indeedApplyID: 'apply-0001' },
                rationale: 'statusChangeDateTime is in the future',
              },
            ],
          },
        },
      },
    });
    assert.deepEqual(lastLine('partnerDispositions(first: 10)'), {
      data: {
        partnerDispositions: {
          edges: [
            {
              node: {
                dispositionStatus: 'NEW',
                statusChangeDateTime: '2025-01-31T12:00:00Z',
                identifiedBy: { indeedApplyID: 'apply-0001' },
              },
            },
          ],
        },
      },
    });
  });
});
