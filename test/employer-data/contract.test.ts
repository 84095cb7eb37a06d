import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Principal } from '../../src/oauth/principal.js';
import { randomToken, sha256Hex } from '../../src/security/random.js';
import { describeEachDialect } from '../support/databases.js';
import { postGraphQL, type GraphQLBody } from '../support/graphql-client.js';
import { employerAppPrincipal, insertTenant } from '../support/interview-fixtures.js';
import { PATCH_EMPLOYER, enableApis } from '../support/job-postings.js';
import { startTestService } from '../support/service.js';

type PatchError = {
  message: string;
  path: string[];
  extensions: Record<string, unknown> & { code: string };
};

describeEachDialect('Employer Data: the contract of patchEmployer', (database) => {
  let service: Awaited<ReturnType<typeof startTestService>>;
  const principals: Record<string, Principal> = {};

  before(async () => {
    const { db } = database();
    const tenant = await insertTenant(db, 'employers');
    // A second app of the same partner (owner), and a partner of its own.
    const siblingAppId = randomUUID();
    const now = Date.now();
    await db('apps').insert({
      id: siblingAppId,
      client_id: randomToken(12),
      owner_user_id: tenant.userId,
      name: 'sibling app',
      client_type: 'confidential',
      client_secret_hash: sha256Hex('unused'),
      created_at: now,
      updated_at: now,
    });
    const stranger = await insertTenant(db, 'stranger');
    const disabled = await insertTenant(db, 'not-enabled');
    for (const appId of [tenant.appId, siblingAppId, stranger.appId]) {
      await enableApis(db, appId, ['employer-data']);
    }
    const own = { ...employerAppPrincipal(tenant), employerId: null, scopes: [] };
    principals.own = own;
    principals.sibling = { ...own, appId: siblingAppId };
    principals.stranger = { ...employerAppPrincipal(stranger), employerId: null, scopes: [] };
    principals.disabled = { ...employerAppPrincipal(disabled), employerId: null, scopes: [] };
    principals.user = {
      kind: 'user',
      userId: tenant.userId,
      appId: tenant.appId,
      clientId: 'c',
      jti: 'j',
      employerId: null,
      scopes: [],
    };
    service = await startTestService(database(), {
      authenticate: async (token) => principals[token] ?? null,
    });
  });
  after(async () => {
    await service?.stop();
  });

  async function patch(input: object, token = 'own'): Promise<GraphQLBody> {
    const { status, body } = await postGraphQL(service.url, token, {
      query: PATCH_EMPLOYER,
      variables: { input },
    });
    assert.equal(status, 200);
    return body;
  }

  async function refused(input: object, token = 'own'): Promise<PatchError> {
    const body = await patch(input, token);
    assert.deepEqual(body.data, { patchEmployer: null });
    assert.equal(body.errors?.length, 1, JSON.stringify(body.errors));
    return body.errors![0] as PatchError;
  }

  it('creates an employer, then updates it, answering its key and whether anything changed', async () => {
    const id = { type: 'ats', id: 'acme-1' };
    const created = await patch({ id, employerName: 'Acme Robotics' });
    assert.equal(created.errors, undefined);
    const { employerKey, ...rest } = created.data.patchEmployer;
    assert.match(employerKey, /^[0-9a-f-]{36}$/);
    assert.deepEqual(rest, { responseCode: 'OK', attributeUpdated: true, errors: [] });

    const attributes = {
      employerType: 'JURIDICAL_PERSON',
      countrySpecificAttributes: [
        { country: 'US', websiteUrl: 'https://acme.example.com', employees: 'ERv1_51_200' },
      ],
      localeSpecificAttributes: [{ country: 'US', language: 'en', localizedName: 'Acme' }],
    };
    const updated = await patch({ id, employerAttributes: attributes });
    assert.deepEqual(updated.data.patchEmployer, {
      responseCode: 'OK',
      attributeUpdated: true,
      errors: [],
      employerKey,
    });
    const again = await patch({ id, employerAttributes: attributes });
    assert.equal(
      again.data.patchEmployer.attributeUpdated,
      false,
      'the same patch changes nothing',
    );
    const stored = await database().db('partner_employers').where({ id: employerKey }).first();
    const saved = JSON.parse(stored.attributes);
    assert.deepEqual(saved.countries.US, {
      websiteUrl: 'https://acme.example.com',
      employees: 'ERv1_51_200',
    });
    assert.deepEqual(saved.locales.ww_WW, { localizedName: 'Acme' }, 'also the global default');
  });

  it('needs employerName to create', async () => {
    const error = await refused({ id: { type: 'ats', id: 'nameless' } });
    assert.equal(error.message, 'employerName is required to create an employer');
    assert.equal(error.extensions.code, 'BAD_USER_INPUT');
  });

  it('checks employerName: at most 255 UTF-16 units, no email address, no run of 8 digits', async () => {
    const cases: Array<[string, string]> = [
      ['x'.repeat(256), 'employerName is longer than 255 characters'],
      ['Acme jobs@acme.example.com', 'employerName must not contain an email address'],
      ['Acme 12345678', 'employerName must not contain a run of 8 or more digits'],
    ];
    for (const [employerName, message] of cases) {
      const error = await refused({ id: { type: 'ats', id: 'names' }, employerName });
      assert.equal(error.message, message);
      assert.equal(error.extensions.code, 'BAD_USER_INPUT');
    }
    // 255 UTF-16 units, of which 2 for one emoji: accepted; 7 digits: accepted.
    const fine = await patch({
      id: { type: 'ats', id: 'names' },
      employerName: `${'y'.repeat(253)}😀`,
    });
    assert.equal(fine.errors, undefined);
    assert.equal(
      (await patch({ id: { type: 'ats', id: 'n2' }, employerName: 'Acme 1234567' })).errors,
      undefined,
    );
  });

  it('refuses a bad {type, id} pair with the platform message', async () => {
    for (const id of [
      { type: '', id: 'x' },
      { type: 'has space', id: 'x' },
      { type: 'ats', id: '  ' },
    ]) {
      const error = await refused({ id, employerName: 'Acme' });
      assert.equal(error.message, 'EmployerIdentifiersInput contains invalid type or id');
    }
  });

  it('answers a bad websiteUrl with the documented error shape', async () => {
    const body = await patch({
      id: { type: 'ats', id: 'web' },
      employerName: 'Web Co',
      employerAttributes: {
        countrySpecificAttributes: [{ country: 'US' }, { country: 'DE', websiteUrl: 'not a url' }],
      },
    });
    assert.deepEqual(body.data, { patchEmployer: null });
    const [error] = body.errors as PatchError[];
    assert.deepEqual(error!.path, ['patchEmployer']);
    assert.deepEqual(error!.extensions, {
      code: 'BAD_USER_INPUT',
      classification: {
        type: 'ExtendedValidationError',
        validatedPath: [
          'patchEmployer',
          'input',
          'employerAttributes',
          'countrySpecificAttributes',
          1,
          'websiteUrl',
        ],
        constraint: '@DossierUrlConstraint',
      },
      serviceName: 'company-data-api',
    });
    const long = await refused({
      id: { type: 'ats', id: 'web' },
      employerName: 'Web Co',
      employerAttributes: {
        countrySpecificAttributes: [
          { country: 'US', websiteUrl: `https://a.example/${'p'.repeat(390)}` },
        ],
      },
    });
    assert.equal(
      (long.extensions.classification as { constraint: string }).constraint,
      '@DossierUrlConstraint',
    );
  });

  it('checks the country- and locale-specific attributes', async () => {
    const cases: Array<[object, string]> = [
      [
        { countrySpecificAttributes: [{ country: 'XX' }] },
        'employerAttributes.countrySpecificAttributes[0].country: "XX" is not an ISO 3166-1 alpha-2 country code',
      ],
      [
        { countrySpecificAttributes: [{ country: 'US' }, { country: 'US' }] },
        'two entries have the same country',
      ],
      [
        { countrySpecificAttributes: [{ country: 'US', taxId: 'x'.repeat(101) }] },
        'employerAttributes.countrySpecificAttributes[0].taxId is longer than 100 characters',
      ],
      [
        {
          employerType: 'JURIDICAL_PERSON',
          countrySpecificAttributes: [{ country: 'JP', taxId: '1234' }],
        },
        'taxId of a JURIDICAL_PERSON in Japan must be its 13-digit corporate number',
      ],
      [
        { localeSpecificAttributes: [{ country: 'US', language: 'ww' }] },
        'ww_WW is not a locale to set: use isGlobalDefault',
      ],
      [
        {
          localeSpecificAttributes: [
            { country: 'US', language: 'en', localizedName: 'x'.repeat(61) },
          ],
        },
        'employerAttributes.localeSpecificAttributes[0].localizedName is longer than 60 characters',
      ],
    ];
    for (const [employerAttributes, message] of cases) {
      const error = await refused({
        id: { type: 'ats', id: 'attributes' },
        employerName: 'Attr Co',
        employerAttributes,
      });
      assert.equal(error.message, message);
      assert.equal(error.extensions.code, 'BAD_USER_INPUT');
    }
    const unknownEmployees = await patch({
      id: { type: 'ats', id: 'attributes' },
      employerName: 'Attr Co',
      employerAttributes: { countrySpecificAttributes: [{ country: 'US', employees: 'ERv1_7' }] },
    });
    assert.equal(unknownEmployees.errors![0]!.extensions.code, 'BAD_USER_INPUT');
    assert.match(
      unknownEmployees.errors![0]!.message,
      /Value "ERv1_7" does not exist in "EmployerEmployeesCount" enum/,
    );
  });

  it('protects an employer from the partner’s other apps, and keeps partners apart', async () => {
    const id = { type: 'ats', id: 'protected-1' };
    assert.equal((await patch({ id, employerName: 'Mine' })).errors, undefined);
    const error = await refused({ id, employerName: 'Theirs' }, 'sibling');
    assert.equal(error.extensions.code, 'FORBIDDEN');
    assert.equal(
      error.message,
      'This employer is protected: it was created by another app of this partner, and only that app may change it',
    );
    const stranger = await patch({ id, employerName: 'Stranger Inc' }, 'stranger');
    assert.equal(stranger.errors, undefined, 'another partner has its own employers');
    assert.notEqual(stranger.data.patchEmployer.employerKey, undefined);
  });

  it('refuses a user token and an app not enabled for Employer Data', async () => {
    const user = await refused({ id: { type: 'ats', id: 'u' }, employerName: 'U' }, 'user');
    assert.equal(user.extensions.code, 'FORBIDDEN');
    const disabled = await refused({ id: { type: 'ats', id: 'd' }, employerName: 'D' }, 'disabled');
    assert.equal(disabled.extensions.code, 'FORBIDDEN');
    assert.match(
      disabled.message,
      /^Client is not authorized: this app is not enabled for the Employer Data API \("employer-data"\)/,
    );
  });
});
