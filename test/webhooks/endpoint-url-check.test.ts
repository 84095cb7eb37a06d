import assert from 'node:assert/strict';
import { ValidationError } from '../../src/errors.js';
import { shapeOnlyUrlCheck } from '../../src/webhooks/endpoint-url-check.js';

describe('endpoint URL shape check', () => {
  const production = shapeOnlyUrlCheck({ requireHttps: true });
  const development = shapeOnlyUrlCheck({ requireHttps: false });

  it('answers the normalised URL', async () => {
    assert.equal(
      (await production(' https://Receiver.Example/hooks ')).href,
      'https://receiver.example/hooks',
    );
    assert.equal((await development('http://127.0.0.1:8080/h')).href, 'http://127.0.0.1:8080/h');
  });

  for (const [raw, message] of [
    ['', /enter the URL/],
    ['receiver.example/hooks', /not a valid absolute URL/],
    ['ftp://receiver.example/', /must start with https/],
    ['http://receiver.example/', /must use https/],
    ['https://user:pass@receiver.example/', /user name or password/],
    ['https://receiver.example/#part', /fragment/],
    [`https://receiver.example/${'a'.repeat(2048)}`, /at most 2048/],
  ] as const) {
    it(`refuses ${JSON.stringify(raw.slice(0, 40))}`, async () => {
      await assert.rejects(production(raw), (error: unknown) => {
        assert.ok(error instanceof ValidationError);
        assert.equal(error.field, 'url');
        assert.match(error.message, message);
        return true;
      });
    });
  }
});
