import assert from 'node:assert/strict';
import { checkAppPublisher, publisherUrlProblem } from '../../src/accounts/app-publisher.js';
import { InvalidFields } from '../../src/errors.js';

const NONE = { developer_name: null, homepage_url: null, privacy_policy_url: null, logo_url: null };

describe('publisher details of an app', () => {
  it('accept https anywhere and plain http only on the loopback hosts', () => {
    for (const url of [
      'https://example.com',
      'https://example.com/privacy?lang=en#top',
      'https://bücher.example/',
      'http://localhost:3000/',
      'http://127.0.0.1/logo.png',
      'http://[::1]:8080/',
    ]) {
      assert.equal(publisherUrlProblem(url), undefined, url);
    }
  });

  it('refuse other schemes, relative addresses, credentials, controls and long ones', () => {
    for (const url of [
      'http://example.com/',
      'javascript:alert(1)',
      'data:image/png;base64,AAAA',
      'ftp://example.com/logo.png',
      '//example.com/logo.png',
      '/logo.png',
      'https://user:pass@example.com/',
      'http://user@localhost/',
      'https://example.com/\u0000',
      'https://example.com/a\nb',
      `https://example.com/${'a'.repeat(2048)}`,
    ]) {
      assert.ok(publisherUrlProblem(url), url);
    }
  });

  it('keep what is left out, clear what is blank, and report every field at once', () => {
    const current = { ...NONE, developer_name: 'Kept', logo_url: 'https://example.com/a.png' };
    assert.deepEqual(
      checkAppPublisher({ homepageUrl: ' https://example.com ', logoUrl: '' }, current),
      {
        developer_name: 'Kept',
        homepage_url: 'https://example.com',
        privacy_policy_url: null,
        logo_url: null,
      },
    );
    assert.throws(
      () =>
        checkAppPublisher(
          { developerName: 'x'.repeat(201), homepageUrl: 'http://example.com', logoUrl: 'nope' },
          NONE,
        ),
      (error: unknown) => {
        assert.ok(error instanceof InvalidFields);
        assert.deepEqual(
          error.problems.map((problem) => problem.field),
          ['developer_name', 'homepage_url', 'logo_url'],
        );
        return true;
      },
    );
  });
});
