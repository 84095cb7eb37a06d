import assert from 'node:assert/strict';
import { CONSOLE_PATHS, CONSOLE_PREFIX, appPaths, employerPaths } from '../../src/console/paths.js';

/** A route pattern with its parameters filled in, encoded as the builders encode them. */
function fill(pattern: string, params: Record<string, string | number>): string {
  return pattern.replace(/:([A-Za-z]+)/g, (_match, name: string) =>
    encodeURIComponent(String(params[name])),
  );
}

describe('console paths', () => {
  const clientId = 'a b/c';
  const employerId = '5f0c/1';

  it('builds every address of an app from the route pattern the router mounts', () => {
    const built = appPaths(clientId);
    const patterns = CONSOLE_PATHS.app;
    for (const tab of [
      'overview',
      'editOverview',
      'credentials',
      'rotate',
      'reveal',
      'redirectUrls',
      'activity',
      'delete',
      'calendarMails',
    ] as const) {
      assert.equal(built[tab], fill(patterns[tab], { clientId }), tab);
    }
    assert.equal(built.redirectUrl(3), fill(patterns.redirectUrl, { clientId, position: 3 }));
    assert.equal(
      built.removeRedirectUrl(3),
      fill(patterns.removeRedirectUrl, { clientId, position: 3 }),
    );
  });

  it("builds an employer's addresses from the route patterns", () => {
    const built = employerPaths(employerId);
    assert.equal(built.detail, fill(CONSOLE_PATHS.employers.detail, { employerId }));
    assert.equal(built.members, fill(CONSOLE_PATHS.employers.members, { employerId }));
  });

  it('keeps every console page under the console prefix', () => {
    const patterns = [
      CONSOLE_PATHS.dashboard,
      CONSOLE_PATHS.signIn,
      CONSOLE_PATHS.signUp,
      CONSOLE_PATHS.signOut,
      CONSOLE_PATHS.newApp,
      ...Object.values(CONSOLE_PATHS.app),
      ...Object.values(CONSOLE_PATHS.employers),
    ];
    for (const pattern of patterns) {
      assert.ok(pattern === CONSOLE_PREFIX || pattern.startsWith(`${CONSOLE_PREFIX}/`), pattern);
    }
  });
});
