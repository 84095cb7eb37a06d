import assert from 'node:assert/strict';
import { ConsoleClient } from './console-client.js';

/** The interviewer identity cookie a browser gets for saying which invited interviewer it is. */
export async function interviewerCookie(
  baseUrl: string,
  interviewerPath: string,
  email: string,
): Promise<string> {
  const browser = new ConsoleClient(baseUrl);
  const answer = await browser.submit(interviewerPath, `${interviewerPath}/identify`, { email });
  assert.equal(answer.status, 303, answer.body);
  return `hpa_lobby_interviewer=${browser.cookie('hpa_lobby_interviewer')}`;
}

/** The CSRF token and cookies a lobby page hands a browser, for its forms and requests. */
export async function lobbyPageCredentials(
  baseUrl: string,
  pagePath: string,
  cookie?: string,
): Promise<{ csrf: string; cookie: string }> {
  const page = await fetch(new URL(pagePath, baseUrl), { headers: cookie ? { cookie } : {} });
  const csrf = /name="csrf_token" value="([^"]+)"/.exec(await page.text())?.[1];
  assert.ok(csrf, `no form on ${pagePath}`);
  const set = page.headers.getSetCookie().map((line) => line.split(';')[0]!);
  return { csrf, cookie: [...set, ...(cookie ? [cookie] : [])].join('; ') };
}

/**
 * Posts a lobby step (`check-in`, `admit`, `send-back`, …) as a browser would, confirmed, and
 * expects the 303 back to the page.
 */
export async function postLobbyStep(
  baseUrl: string,
  pagePath: string,
  action: string,
  cookie?: string,
): Promise<void> {
  const credentials = await lobbyPageCredentials(baseUrl, pagePath, cookie);
  const answer = await fetch(new URL(`${pagePath}/${action}`, baseUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: {
      cookie: credentials.cookie,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ csrf_token: credentials.csrf, confirmed: 'yes' }),
  });
  assert.equal(answer.status, 303, `${action}: ${await answer.text()}`);
}
