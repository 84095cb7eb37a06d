import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { temporaryRecordingsDir } from '../recordings/interview-in-progress.js';
import { LobbyBrowser, RecordingClient } from '../recordings/interview-in-progress.js';
import {
  authorizationCode,
  ConsoleClient,
  formCsrfToken,
  locationOf,
  unescapeHtml,
  type Page,
} from '../support/console-client.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL } from '../support/graphql-client.js';
import { RECORD_QUERY } from '../support/interview-room.js';
import { LiveClient } from '../support/live-client.js';
import { interviewerCookie } from '../support/lobby-forms.js';
import {
  RAISED_RATE_LIMITS,
  startServiceProcess,
  type ServiceProcess,
} from '../support/service-process.js';
import { SmtpInbox } from '../support/smtp-inbox.js';

const REDIRECT = 'https://partner.example.com/callback';
const INTERVIEWER = 'lee.interviewer@example.com';

const CREATE_EVENT = `mutation($input: CreateVirtualInterviewEventInput!) {
  createVirtualInterviewEvent(input: $input) {
    event {
      id interviewerLobbyUrl interviewLandingPageUrl
      intervieweesConnection { interviewees { intervieweeLobbyUrl } }
    }
  }
}`;

/**
 * Every secret the walk below sees, by what it is. A secret is looked for as itself and in the
 * forms a log line could carry it: URL-encoded, and inside an HTTP Basic header.
 */
class Secrets {
  readonly seen = new Map<string, string>();

  add(label: string, value: string | null | undefined): string {
    assert.ok(value && value.length >= 8, `${label}: the walk did not get it`);
    this.seen.set(label, value);
    return value;
  }

  /** The labels of the secrets that appear in `text`. */
  foundIn(text: string): string[] {
    return [...this.seen]
      .filter(([, value]) => formsOf(value).some((form) => text.includes(form)))
      .map(([label]) => label);
  }

  /** The lines of `text` that hold a secret, each secret replaced by its label. */
  linesWithSecrets(text: string): string[] {
    return text
      .split('\n')
      .filter((line) => this.foundIn(line).length > 0)
      .map((line) => {
        for (const [label, value] of this.seen) {
          for (const form of formsOf(value)) line = line.replaceAll(form, `<${label}>`);
        }
        return line;
      });
  }
}

function formsOf(value: string): string[] {
  return [value, encodeURIComponent(value), Buffer.from(value).toString('base64')];
}

const pathOf = (url: string) => new URL(url).pathname;
const lastSegment = (urlOrPath: string) => urlOrPath.split(/[?#]/)[0]!.split('/').pop()!;

/**
 * Issue 18 item 5: after a full walk through everything that carries a secret (console, OAuth,
 * GraphQL, both lobbies, the room's live socket, a recording, mailed links, error pages), with the
 * production default logging at its most verbose, no capability token, client secret, access or
 * refresh token, password, session cookie or mailed link appears anywhere in what the service
 * wrote; and every request line names the path that was asked for, its tokens masked.
 */
describeEachDialect('no secret in the logs after a full walk (production cluster)', (database) => {
  let service: ServiceProcess | undefined;
  let inbox: SmtpInbox;
  let recordingsDir: string;

  before(async () => {
    inbox = await SmtpInbox.start();
    recordingsDir = temporaryRecordingsDir();
  });
  after(async () => {
    await service?.stop();
    await inbox?.close();
    rmSync(recordingsDir, { recursive: true, force: true });
  });

  it('logs every request with its path, and none of the secrets the walk saw', async function () {
    this.timeout(180_000);
    service = await startServiceProcess(
      database(),
      {
        ...RAISED_RATE_LIMITS,
        LOG_LEVEL: 'trace',
        SMTP_URL: inbox.url,
        RECORDINGS_DIR: recordingsDir,
      },
      'cluster',
      { keepOutput: 'all' },
    );
    const base = service.url;
    const secrets = new Secrets();
    const email = `walker-${randomBytes(4).toString('hex')}@example.com`;
    const password = secrets.add('password', `Pw-${randomBytes(12).toString('hex')}`);

    // --- Console: sign-up, the verification link, sign-in, sign-up again with the same address.
    const console_ = new ConsoleClient(base);
    await console_.submit('/console/sign-up', '/console/sign-up', {
      email,
      password,
      name: 'Walker',
    });
    await signIn(console_, email, password);
    secrets.add('console session cookie', console_.cookie('hpa_session'));
    secrets.add('CSRF cookie', console_.cookie('hpa_csrf'));
    const verification = await inbox.waitFor(email, 1);
    const verifyLink = verification.links.find((link) => link.includes('/verify-email/'));
    secrets.add('verification link token', lastSegment(verifyLink!));
    assert.equal((await console_.get(pathOf(verifyLink!))).status, 200);
    assert.equal((await console_.get(pathOf(verifyLink!))).status, 410, 'used once');
    const intruder = new ConsoleClient(base);
    await intruder.submit('/console/sign-up', '/console/sign-up', {
      email,
      password: secrets.add('second sign-up password', `Pw2-${randomBytes(12).toString('hex')}`),
      name: 'Somebody Else',
    });
    const failedSignIn = await new ConsoleClient(base).submit(
      '/console/sign-in',
      '/console/sign-in',
      {
        email,
        password: secrets.add('wrong password', `Wrong-${randomBytes(12).toString('hex')}`),
      },
    );
    assert.equal(failedSignIn.status, 401);

    // --- An employer, an app, its secret shown once and revealed again with the password.
    const employer = await console_.submit('/console/employers', '/console/employers', {
      name: 'Walk Employer',
    });
    assert.equal(employer.status, 303, employer.body);
    const registered = await console_.submit('/console/apps/new', '/console/apps/new', {
      name: 'Walk Scheduler',
      client_type: 'confidential',
      redirect_uri_1: REDIRECT,
      grant_types: ['', 'authorization_code', 'refresh_token', 'client_credentials'],
    });
    assert.equal(registered.status, 303, registered.body);
    const credentialsPath = locationOf(registered);
    const shown = await console_.get(credentialsPath);
    const clientId = unescapeHtml(/<code id="client-id">([^<]*)<\/code>/.exec(shown.body)![1]!);
    const clientSecret = secrets.add('client secret', secretOn(shown));
    secrets.add('Basic credentials', `${clientId}:${clientSecret}`);
    const wrongReveal = await console_.submit(credentialsPath, `${credentialsPath}/reveal`, {
      password: secrets.add('wrong reveal password', `Nope-${randomBytes(12).toString('hex')}`),
    });
    assert.equal(wrongReveal.status, 401);
    const revealed = await console_.submit(credentialsPath, `${credentialsPath}/reveal`, {
      password,
    });
    assert.equal(revealed.status, 303, revealed.body);
    assert.equal(secretOn(await console_.get(locationOf(revealed))), clientSecret);
    const employerId = /<code id="employer-id-1">([^<]*)<\/code>/.exec(
      (await console_.get(`/console/apps/${clientId}`)).body,
    )?.[1];
    assert.ok(employerId, 'the overview lists the employer');

    // --- The API explorer's token.
    const explorerPage = await console_.submit('/console/explorer', '/console/explorer', {
      client_id: clientId,
      employer: employerId,
    });
    assert.equal(explorerPage.status, 200, explorerPage.body);
    secrets.add('explorer token', /data-token="([^"]+)"/.exec(explorerPage.body)?.[1]);

    // --- Token requests: good ones, and ones that fail in each place a request can fail.
    const basic = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
    const token = (form: Record<string, string>, authorization = basic) =>
      formPost(base, '/oauth/v2/tokens', form, { authorization });
    const issued = await token({
      grant_type: 'client_credentials',
      scope: 'employer_access',
      employer: employerId,
    });
    assert.equal(issued.status, 200, JSON.stringify(issued.body));
    const accessToken = secrets.add('client credentials access token', issued.body.access_token);
    const wrongSecret = secrets.add('wrong client secret', randomBytes(32).toString('base64url'));
    assert.equal(
      (
        await token(
          { grant_type: 'client_credentials' },
          `Basic ${Buffer.from(`${clientId}:${wrongSecret}`).toString('base64')}`,
        )
      ).status,
      401,
    );
    assert.equal(
      (
        await formPost(base, '/oauth/v2/tokens', {
          grant_type: 'client_credentials',
          client_id: clientId,
          client_secret: wrongSecret,
        })
      ).status,
      401,
    );
    const brokenJson = await fetch(`${base}/oauth/v2/tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"grant_type":"client_credentials","client_id":"${clientId}","client_secret":"${clientSecret}"`,
    });
    assert.equal(brokenJson.status, 400);

    // The authorization code flow through the pages, as the signed-in console user.
    const verifier = secrets.add('PKCE verifier', randomBytes(32).toString('base64url'));
    const state = secrets.add('state', randomBytes(16).toString('base64url'));
    const authorize = new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      scope: 'openid email employer_access offline_access',
      state,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    });
    const code = secrets.add(
      'authorization code',
      await authorizationCode(console_, `/oauth/v2/authorize?${authorize}`),
    );
    const exchanged = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    assert.equal(exchanged.status, 200, JSON.stringify(exchanged.body));
    secrets.add('code flow access token', exchanged.body.access_token);
    secrets.add('ID token', exchanged.body.id_token);
    const refreshToken = secrets.add('refresh token', exchanged.body.refresh_token);
    const userinfo = await fetch(`${base}/v2/api/userinfo`, {
      headers: { authorization: `Bearer ${exchanged.body.access_token}` },
    });
    assert.equal(userinfo.status, 200);
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: refreshToken });
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body));
    secrets.add('refreshed access token', refreshed.body.access_token);
    const rotatedRefresh = secrets.add('rotated refresh token', refreshed.body.refresh_token);
    assert.equal(
      (await token({ grant_type: 'refresh_token', refresh_token: refreshToken })).status,
      400,
      'a rotated-out refresh token is refused',
    );
    const introspected = await formPost(
      base,
      '/oauth/v2/introspect',
      { token: rotatedRefresh },
      { authorization: basic },
    );
    assert.equal(introspected.status, 200);
    const revoked = await formPost(
      base,
      '/oauth/v2/revoke',
      { token: refreshed.body.access_token },
      { authorization: basic },
    );
    assert.equal(revoked.status, 200);
    const replayed = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    assert.equal(replayed.status, 400, 'a code works once');
    const refusedBearer = await postGraphQL(base, refreshed.body.access_token, {
      query: '{ __typename }',
    });
    assert.equal(refusedBearer.status, 401, 'a revoked token is refused');

    // --- GraphQL: an event starting in ten minutes, with its lobby links.
    const start = Date.now() + 10 * 60_000;
    const created = await postGraphQL(base, accessToken, {
      query: CREATE_EVENT,
      variables: {
        input: {
          title: 'Walk round',
          startTime: new Date(start).toISOString(),
          endTime: new Date(start + 3600_000).toISOString(),
          timezone: 'Europe/Berlin',
          interviewers: [{ email: INTERVIEWER }],
          interviewee: { name: 'Kim Candidate', email: 'kim@example.com' },
          requestMetadata: { atsName: 'Log walk' },
        },
      },
    });
    assert.equal(created.body.errors, undefined, JSON.stringify(created.body.errors));
    const event = created.body.data.createVirtualInterviewEvent.event;
    const interviewerPath = pathOf(event.interviewerLobbyUrl);
    const intervieweePath = pathOf(
      event.intervieweesConnection.interviewees[0].intervieweeLobbyUrl,
    );
    const landingPath = pathOf(event.interviewLandingPageUrl);
    secrets.add('interviewer lobby token', lastSegment(interviewerPath));
    secrets.add('interviewee lobby token', lastSegment(intervieweePath));
    secrets.add('landing page token', lastSegment(landingPath));

    // --- Both lobbies, the room's live sockets, a recording.
    assert.equal((await fetch(`${base}${landingPath}`)).status, 200);
    const interviewer = new LobbyBrowser(base);
    await interviewer.open(interviewerPath);
    assert.equal(
      await interviewer.submit(`${interviewerPath}/identify`, { email: INTERVIEWER }),
      303,
    );
    await interviewer.open(interviewerPath);
    const identity = await interviewerCookie(base, interviewerPath, INTERVIEWER);
    secrets.add('interviewer identity cookie', identity.split('=').slice(1).join('='));
    const interviewee = new LobbyBrowser(base);
    await interviewee.open(intervieweePath);
    assert.equal(await interviewee.submit(`${intervieweePath}/check-in`), 303);
    const sockets = [
      await LiveClient.connect(`${base}${intervieweePath}/live`),
      await LiveClient.connect(`${base}${interviewerPath}/live`, { cookie: identity }),
    ];
    for (const socket of sockets) await socket.next('hello');
    assert.equal(await interviewer.submit(`${interviewerPath}/admit`), 303);
    await interviewer.open(interviewerPath);
    const recorder = new RecordingClient(interviewer, interviewerPath);
    const recordingId = await recorder.started();
    const bytes = randomBytes(2000);
    assert.equal((await recorder.chunk(recordingId, 0, bytes)).status, 204);
    assert.equal((await recorder.stop(recordingId)).status, 204);
    const records = await postGraphQL(base, accessToken, {
      query: RECORD_QUERY,
      variables: { ids: [event.id] },
    });
    const recordingUrl: string =
      records.body.data.virtualInterviewEvents.events[0].intervieweesConnection.interviewees[0]
        .interviewRecordsConnection.records[0].recordingUrl;
    const recordingToken = secrets.add('recording token', lastSegment(recordingUrl));
    const streamed = await fetch(recordingUrl);
    assert.equal(streamed.status, 200);
    assert.deepEqual(Buffer.from(await streamed.arrayBuffer()), bytes);
    // Express routes without regard to case: this is the recording too.
    assert.equal((await fetch(`${base}/RECORDINGS/${recordingToken}`)).status, 200);
    assert.equal((await fetch(recordingUrl, { headers: { range: 'bytes=0-9' } })).status, 206);
    assert.equal(
      await interviewer.submit(`${interviewerPath}/end-interview`, { confirmed: 'yes' }),
      303,
    );
    await Promise.all(sockets.map((socket) => socket.close()));

    // --- Error pages under the capability prefixes, with real and with bad tokens.
    const notFound = [
      `${interviewerPath}/no-such-step`,
      `${intervieweePath}/room/extra`,
      `${landingPath}/extra`,
      `/recordings/${recordingToken}/extra`,
      `//recordings/${recordingToken}`,
      `/lobby/interviewee/${'x'.repeat(43)}`,
      `/recordings/${'y'.repeat(43)}`,
    ];
    for (const path of notFound) {
      assert.equal((await fetch(`${base}${path}`)).status, 404, path);
    }
    const oversized = await fetch(`${base}${intervieweePath}/check-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `csrf_token=${'z'.repeat(200 * 1024)}`,
    });
    assert.equal(oversized.status, 413);
    const wrongKind = await LiveClient.open(
      `${base}${interviewerPath.replace('interviewer', 'interviewee')}/live`,
    );
    assert.ok(!(wrongKind instanceof LiveClient));
    assert.equal(wrongKind.status, 404);
    assert.equal(
      (await fetch(`${base}/console/sign-in?token=${recordingToken}&code=${code}`)).status,
      200,
    );

    // --- Forgot password: the mailed link, the new password, the used link again.
    const forgot = await new ConsoleClient(base).submit(
      '/console/forgot-password',
      '/console/forgot-password',
      { email },
    );
    assert.equal(forgot.status, 200);
    const resetMail = await waitForMail(inbox, email, 'Reset your password');
    const resetLink = resetMail.links.find((link) => link.includes('/reset-password/'))!;
    secrets.add('password reset token', lastSegment(resetLink));
    const resetter = new ConsoleClient(base);
    const newPassword = secrets.add('new password', `New-${randomBytes(12).toString('hex')}`);
    const reset = await resetter.submit(pathOf(resetLink), pathOf(resetLink), {
      password: newPassword,
    });
    assert.equal(reset.status, 303, reset.body);
    assert.equal((await resetter.get(pathOf(resetLink))).status, 410);
    const again = new ConsoleClient(base);
    await signIn(again, email, newPassword);
    secrets.add('second console session cookie', again.cookie('hpa_session'));

    // Everything is written before it is read: the service flushes its log as it stops.
    assert.equal(await service.stop(), 0);
    const output = service.output();
    service = undefined;
    const lines = output.split('\n').filter((line) => line.includes('"request completed"'));
    const leaked = secrets.foundIn(output);
    const rootPaths = lines.filter((line) => line.includes('"path":"/"')).length;
    console.log(
      `      ${output.length} characters of log, ${lines.length} request lines; ` +
        `${secrets.seen.size} secrets seen, ${leaked.length} in the log: ${JSON.stringify(leaked)}; ` +
        `request lines logged as "/": ${rootPaths}`,
    );
    assert.deepEqual(leaked, [], secrets.linesWithSecrets(output).slice(0, 20).join('\n'));
    assert.equal(rootPaths, 0, 'no request here was for "/"');
    assert.ok(lines.some((line) => line.includes('"path":"/recordings/:token"')));
    assert.ok(lines.some((line) => line.includes('"path":"/oauth/v2/tokens","status":401')));
  });
});

async function signIn(client: ConsoleClient, email: string, password: string): Promise<void> {
  const page = await client.get('/console/sign-in');
  if (page.status === 303) return; // already signed in
  const answer = await client.post('/console/sign-in', {
    csrf_token: formCsrfToken(page.body, '/console/sign-in'),
    email,
    password,
  });
  assert.equal(answer.status, 303, answer.body);
}

function secretOn(page: Page): string {
  const match = /<code id="client-secret" class="secret">([^<]*)<\/code>/.exec(page.body);
  assert.ok(match, 'the page shows the secret');
  return unescapeHtml(match[1]!);
}

async function formPost(
  base: string,
  path: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** The newest mail to `address` with this subject, waiting for it. */
async function waitForMail(inbox: SmtpInbox, address: string, subject: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const mail = inbox
      .to(address)
      .filter((received) => received.subject === subject)
      .pop();
    if (mail) return mail;
    if (Date.now() > deadline) throw new Error(`no "${subject}" mail to ${address}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
