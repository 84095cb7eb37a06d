import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { astFromValue, buildSchema, isInputObjectType, print } from 'graphql';
import type { Page } from 'playwright-core';
import { buildAssets } from '../../scripts/build-assets.js';
import { buildGraphQLReference } from '../../scripts/build-graphql-reference.js';
import { loadTypeDefs } from '../../src/graphql/schema.js';
import { ARTIFACTS_DIR, browserSession, PHONE, WIDE } from '../support/browser.js';

const REDOC_BUNDLE = fileURLToPath(
  new URL('../../public/built/redoc.standalone.js', import.meta.url),
);

/** What the page reports about its Content Security Policy (console errors about it). */
function cspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

declare const document: any;
declare const requestAnimationFrame: any;

/**
 * Screenshots of the window (the page is far too long for a whole-page one to show anything)
 * at 1280 and 375 px, scrolled to the given entry, into test/artifacts/graphql-reference-*.png;
 * at 375 px nothing may make the page wider than the phone. Leaves the page at 1280 px.
 */
async function captureBothWidths(page: Page, name: string, entry?: string): Promise<void> {
  for (const viewport of [PHONE, WIDE]) {
    await page.setViewportSize(viewport);
    // Two frames, so layout settles after the resize before it is measured.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    if (entry)
      await page.locator(`[id="${entry}"]`).evaluate((element) => element.scrollIntoView());
    const width = await page.evaluate(() => document.documentElement.scrollWidth as number);
    assert.ok(width <= viewport.width, `${name} is ${width} px wide at ${viewport.width} px`);
    await page.screenshot({
      path: `${ARTIFACTS_DIR}graphql-reference-${name}-${viewport.width}.png`,
    });
  }
}

/** Whether the element's top is in the window (it was scrolled to). */
async function scrolledTo(page: Page, id: string): Promise<boolean> {
  const box = await page.locator(`[id="${id}"]`).boundingBox();
  const viewport = page.viewportSize();
  return box !== null && viewport !== null && box.y >= -1 && box.y < viewport.height;
}

describe('the GraphQL reference in Chromium [sqlite]', function () {
  const session = browserSession('graphql-reference');
  let violations: string[];

  before(async function () {
    this.timeout(120_000);
    // `npm run build` renders it; a test run straight from a clone (or after an SDL change) too.
    buildGraphQLReference();
    if (!existsSync(REDOC_BUNDLE)) await buildAssets();
    violations = cspViolations(session.page);
  });

  it('is linked from /docs, finds createVirtualInterviewEvent by search and leads to its input fields', async () => {
    const { page } = session;
    await page.goto(`${session.url}/docs`);
    await page.getByRole('link', { name: 'GraphQL API reference' }).first().click();
    await page.getByRole('heading', { name: 'GraphQL API reference', level: 1 }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/docs/graphql');

    await page.getByLabel('Search the reference').fill('createVirtualInterviewEvent');
    const results = page.locator('#reference-search-results a');
    await results.first().waitFor();
    assert.equal(
      await results.first().locator('code').innerText(),
      'Mutation.createVirtualInterviewEvent',
      'the operation itself comes first',
    );
    const listed = await results.locator('code').allInnerTexts();
    assert.ok(listed.includes('CreateVirtualInterviewEventInput'), listed.join(' '));
    await captureBothWidths(page, 'search');

    await results.first().click();
    await page.waitForURL(/#Mutation\.createVirtualInterviewEvent$/);
    assert.ok(await scrolledTo(page, 'Mutation.createVirtualInterviewEvent'));

    // The argument's type leads to the input type's entry.
    const argument = page.locator('[id="Mutation.createVirtualInterviewEvent(input:)"]');
    await argument.getByRole('link', { name: 'CreateVirtualInterviewEventInput' }).click();
    await page.waitForURL(/#CreateVirtualInterviewEventInput$/);
    assert.ok(await scrolledTo(page, 'CreateVirtualInterviewEventInput'));
    const input = page.locator('[id="CreateVirtualInterviewEventInput"]');
    const fields = await input.locator('.member > .signature .entry-name').allInnerTexts();

    const type = buildSchema(loadTypeDefs()).getType('CreateVirtualInterviewEventInput');
    assert.ok(isInputObjectType(type));
    assert.deepEqual(fields, Object.keys(type.getFields()));
    // Each field's type is shown, and each described field its description.
    for (const field of Object.values(type.getFields())) {
      const entry = input.locator(`[id="CreateVirtualInterviewEventInput.${field.name}"]`);
      const defaultValue = astFromValue(field.defaultValue, field.type);
      assert.equal(
        (await entry.locator('.signature').innerText()).trim(),
        `${field.name}: ${String(field.type)}${defaultValue ? ` = ${print(defaultValue)}` : ''}`,
      );
      if (field.description) assert.ok((await entry.locator('.description').innerText()).trim());
    }
    await captureBothWidths(page, 'input-type', 'CreateVirtualInterviewEventInput');

    // Enter opens the best match.
    await page.getByLabel('Search the reference').fill('webhookEndpoints');
    await page.getByLabel('Search the reference').press('Enter');
    await page.waitForURL(/#Query\.webhookEndpoints$/);
    assert.deepEqual(violations, []);
  });

  it('works at 375 px: contents folded above the page, search first', async () => {
    const { page } = session;
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto(`${session.url}/docs/graphql`);
    const contents = page.locator('.reference-contents');
    assert.equal(await contents.getAttribute('open'), null, 'folded on a phone');
    await page.getByText('Contents', { exact: true }).click();
    await contents.getByRole('link', { name: 'WebhookEndpoint', exact: true }).click();
    await page.waitForURL(/#WebhookEndpoint$/);
    assert.ok(await scrolledTo(page, 'WebhookEndpoint'));
    await captureBothWidths(page, 'contents', 'WebhookEndpoint');
    assert.deepEqual(violations, []);
  });
});
