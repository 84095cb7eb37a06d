import assert from 'node:assert/strict';
import { DEFAULT_COST_BUDGET_UNITS } from '../../src/config.js';
import { describeEachDialect } from '../support/databases.js';
import { inProcessCli } from './in-process-cli.js';

describeEachDialect('admin CLI: app budget', (database) => {
  let clientId = '';
  let appId = '';

  const { run, json, appOfNewOwner } = inProcessCli(database);

  before(async () => {
    ({ clientId, appId } = await appOfNewOwner('Budgeted'));
  });

  it('shows the default, sets the app its own budget (audited), and goes back to the default', async () => {
    assert.deepEqual(await json('app', 'budget', clientId), {
      client_id: clientId,
      units: DEFAULT_COST_BUDGET_UNITS,
      defaultUnits: DEFAULT_COST_BUDGET_UNITS,
      windowSeconds: 60,
    });
    const set = await run('app', 'budget', clientId, '5,000');
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /: 5000 cost units per 60 s \(its own budget\)/);
    assert.equal((await json('app', 'budget', clientId)).own, 5000);
    const row = await database().db('app_cost_budgets').where({ app_id: appId }).first();
    assert.equal(row.units, 5000);

    const back = await json('app', 'budget', clientId, 'default');
    assert.equal(back.own, undefined);
    assert.equal(back.units, DEFAULT_COST_BUDGET_UNITS);

    const audited = await database()
      .db('audit_events')
      .where({ app_id: appId, type: 'app.cost_budget_changed' })
      .orderBy('id');
    assert.deepEqual(
      audited.map((event: { details: string }) => JSON.parse(event.details)),
      [
        { units: 5000, previous: null, windowSeconds: 60 },
        { units: null, previous: 5000, windowSeconds: 60 },
      ],
    );
  });

  it('refuses a budget that is no whole positive number, and an unknown client id', async () => {
    for (const bad of ['0', '-5', '1.5', 'lots', '3000000000']) {
      const result = await run('app', 'budget', clientId, bad);
      assert.notEqual(result.code, 0, bad);
      assert.match(result.stderr, /budget must be a whole number/, bad);
    }
    const unknown = await run('app', 'budget', 'no-such-client', '10');
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /no app with client id/);
  });
});
