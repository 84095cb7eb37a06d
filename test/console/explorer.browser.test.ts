import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { buildAssets } from '../../scripts/build-assets.js';
import { browserSession } from '../support/browser.js';
import { postGraphQL } from '../support/graphql-client.js';

const PASSWORD = 'correct horse battery staple';
const EXPLORER_BUNDLE = fileURLToPath(new URL('../../public/built/explorer.js', import.meta.url));

/**
 * Everything the page reports about its Content Security Policy: the violation events (the
 * listener is installed by the browser, outside the page's policy) and console errors about it.
 */
function cspViolations(page: Page): string[] {
  const violations: string[] = [];
  void page.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (event) => {
      console.error('securitypolicyviolation: ' + event.effectiveDirective + ' blocked ' + event.blockedURI);
    });`,
  });
  page.on('console', (message) => {
    if (/securitypolicyviolation|Content Security Policy/i.test(message.text())) {
      violations.push(message.text());
    }
  });
  return violations;
}

describe('API explorer and API reference in Chromium [sqlite]', function () {
  const session = browserSession('explorer');
  let violations: string[];

  before(async function () {
    this.timeout(120_000);
    // The bundles come from `npm run build`; a test run straight from a fresh clone makes them.
    if (!existsSync(EXPLORER_BUNDLE)) await buildAssets();
    violations = cspViolations(session.page);
  });

  it('opens GraphiQL for an app and an employer and runs the saved create example', async () => {
    const { page, screenshot } = session;
    const base = session.url;

    const email = `explorer-${randomBytes(4).toString('hex')}@example.com`;
    await page.goto(`${base}/console/sign-up`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Name').fill('Ada Explorer');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('status').filter({ hasText: 'Check your email' }).waitFor();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Your apps' }).waitFor();

    await page.getByRole('link', { name: 'Register an app' }).click();
    await page.getByLabel('App name').fill('Interview Sync');
    await page.getByLabel(/^Confidential/).check();
    await page.getByLabel('Redirect URL 1').fill('https://sync.example.com/oauth/callback');
    await page.getByRole('button', { name: 'Register app' }).click();
    await page.getByRole('heading', { name: 'Interview Sync' }).waitFor();

    await page.getByRole('link', { name: 'Employers' }).click();
    await page.getByLabel('Employer name').fill('Acme Hiring');
    await page.getByRole('button', { name: 'Create employer' }).click();
    await page.getByRole('heading', { name: 'Acme Hiring' }).waitFor();

    await page.getByRole('link', { name: 'API explorer' }).click();
    await page.getByLabel('App').selectOption({ label: 'Interview Sync' });
    await page.getByLabel('Employer').selectOption({ label: 'Acme Hiring' });
    await screenshot('picker');
    await page.getByRole('button', { name: 'Open the explorer' }).click();

    const editor = page.locator('.graphiql-query-editor');
    await editor.getByText('createVirtualInterviewEvent').first().waitFor();
    await page.locator('.graphiql-execute-button').click();
    const response = page.locator('.graphiql-response');
    await response.getByText('"interviewerLobbyUrl"').waitFor();
    const shown = await response.innerText();
    const eventId = /"id": "([0-9a-f-]{36})"/.exec(shown)?.[1];
    assert.ok(eventId, shown);
    await screenshot('created');

    // The event the page shows is the one the API stored for the chosen employer.
    const token = await page.locator('#explorer').getAttribute('data-token');
    assert.ok(token);
    const read = await postGraphQL(base, token, {
      query:
        'query($ids: [ID!]!) { virtualInterviewEvents(input: { ids: $ids }) { events { id title } } }',
      variables: { ids: [eventId] },
    });
    assert.equal(
      read.body.data.virtualInterviewEvents.events[0].title,
      'Backend engineer: first round',
    );

    // Where GraphiQL shows its logo: a link to the GraphQL reference.
    const reference = page
      .locator('.graphiql-logo')
      .getByRole('link', { name: 'GraphQL reference' });
    assert.equal(await reference.getAttribute('href'), '/docs/graphql');

    // The schema came from introspection: the documentation explorer lists the root types.
    await page.getByRole('button', { name: /Show Documentation Explorer/ }).click();
    await page.locator('.graphiql-doc-explorer').getByText('Mutation').first().waitFor();
    await screenshot('docs');
    assert.deepEqual(violations, []);
  });

  it('renders the OpenAPI reference at /docs from our own assets', async () => {
    const { page, screenshot } = session;
    await page.goto(`${session.url}/docs`);
    await page.getByRole('heading', { name: 'Exchange a grant for tokens' }).waitFor();
    await screenshot('reference');
    assert.deepEqual(violations, []);
  });
});
