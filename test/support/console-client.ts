import assert from 'node:assert/strict';

export interface Page {
  status: number;
  headers: Headers;
  body: string;
}

/** A form body; a field given as a list is sent once per value (checkboxes). */
export type Form = Record<string, string | string[]>;

/** A cookie-keeping HTTP client that never follows redirects: one browser, seen hop by hop. */
export class ConsoleClient {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly baseUrl: string) {}

  get(path: string): Promise<Page> {
    return this.request('GET', path);
  }

  post(path: string, form: Form): Promise<Page> {
    return this.request('POST', path, form);
  }

  cookie(name: string): string | undefined {
    return this.cookies.get(name);
  }

  /** GETs `page` and POSTs the form that posts to `action`, CSRF token included. */
  async submit(page: string, action: string, fields: Form): Promise<Page> {
    const shown = await this.get(page);
    assert.equal(shown.status, 200, `GET ${page} answered ${shown.status}:\n${shown.body}`);
    return this.post(action, { csrf_token: formCsrfToken(shown.body, action), ...fields });
  }

  /** Signs up a new account with open sign-up, then signs in: the client is signed in afterwards. */
  async signUp(email: string, password: string, name = 'Console Tester'): Promise<void> {
    const created = await this.submit('/console/sign-up', '/console/sign-up', {
      email,
      password,
      name,
    });
    assert.equal(created.status, 303, created.body);
    assert.equal(locationOf(created), '/console/sign-in');
    await this.signIn(email, password);
  }

  /** Signs in with the console's sign-in form. */
  async signIn(email: string, password: string): Promise<void> {
    const signedIn = await this.submit('/console/sign-in', '/console/sign-in', { email, password });
    assert.equal(signedIn.status, 303, signedIn.body);
  }

  private async request(method: string, path: string, form?: Form): Promise<Page> {
    const headers: Record<string, string> = {};
    if (this.cookies.size) {
      headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    }
    if (form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(new URL(path, this.baseUrl), {
      method,
      headers,
      redirect: 'manual',
      body: form && encodeForm(form),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (/max-age=0/i.test(line) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return { status: response.status, headers: response.headers, body: await response.text() };
  }
}

/** The CSRF token of the page's form that posts to `action`. */
export function formCsrfToken(html: string, action: string): string {
  for (const match of html.matchAll(
    /<form method="post" action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g,
  )) {
    if (unescapeHtml(match[1]!) !== action) continue;
    const token = /<input type="hidden" name="csrf_token" value="([^"]*)">/.exec(match[2]!);
    assert.ok(token, `the form posting to ${action} has no CSRF token`);
    return unescapeHtml(token[1]!);
  }
  assert.fail(`the page has no form posting to ${action}:\n${html}`);
}

/** The text of the `<code id="…">` a console page shows (a client id, a secret shown once). */
export function shownCode(html: string, id: string): string | undefined {
  const match = new RegExp(`<code id="${id}"[^>]*>([^<]*)</code>`).exec(html);
  return match ? unescapeHtml(match[1]!) : undefined;
}

export function unescapeHtml(text: string): string {
  return text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');
}

export function locationOf(response: Page): string {
  const target = response.headers.get('location');
  assert.ok(target, `expected a redirect (status ${response.status}):\n${response.body}`);
  return target;
}

/**
 * Follows an authorization request through the pages as the signed-in browser: allows, picks the
 * first employer where asked, and answers the code of the final redirect.
 */
export async function authorizationCode(
  client: ConsoleClient,
  authorizePath: string,
): Promise<string> {
  let page = await client.get(authorizePath);
  for (let step = 0; step < 5; step++) {
    if (page.status === 302 || page.status === 303) {
      const target = new URL(locationOf(page), 'http://service.invalid');
      const code = target.searchParams.get('code');
      if (code) return code;
      page = await client.get(target.pathname + target.search);
      continue;
    }
    assert.equal(page.status, 200, page.body);
    const form = /<form method="post" action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(page.body);
    assert.ok(form, page.body);
    const fields: Record<string, string> = {};
    for (const input of form[2]!.matchAll(
      /<input type="hidden" name="([^"]*)" value="([^"]*)">/g,
    )) {
      fields[unescapeHtml(input[1]!)] = unescapeHtml(input[2]!);
    }
    const choice = /<input type="radio" id="employer-1" name="employer" value="([^"]*)"/.exec(
      page.body,
    );
    if (choice) fields.employer = unescapeHtml(choice[1]!);
    else fields.decision = 'allow';
    page = await client.post(unescapeHtml(form[1]!), fields);
  }
  assert.fail('no code after the authorization pages');
}

function encodeForm(form: Form): string {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) {
    for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
  }
  return body.toString();
}

let owners = 0;

/**
 * A partner signed up on the console with one confidential app registered: the browser, the
 * app's page base (`/console/apps/<client id>`), its row id and the owner's email.
 */
export async function consoleOwnerWithApp(
  serviceUrl: string,
  appIdOf: (clientId: string) => Promise<string>,
  label: string,
) {
  owners += 1;
  const email = `${label}-${owners}-${Date.now()}@example.com`;
  const browser = new ConsoleClient(serviceUrl);
  await browser.signUp(email, 'correct horse battery staple', 'Pat Partner');
  const app = await browser.submit('/console/apps/new', '/console/apps/new', {
    name: 'Tracker',
    client_type: 'confidential',
    redirect_uri_1: 'https://partner.example.com/callback',
  });
  if (app.status !== 303) throw new Error(`the app was not registered: ${app.body}`);
  const base = locationOf(app).replace(/\/credentials$/, '');
  const clientId = decodeURIComponent(base.split('/').pop()!);
  return { browser, base, email, appId: await appIdOf(clientId) };
}
