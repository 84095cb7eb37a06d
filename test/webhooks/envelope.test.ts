import assert from 'node:assert/strict';
import { HTTP } from 'cloudevents';
import { Webhook } from 'standardwebhooks';
import { ENVELOPE_CONTENT_TYPE, envelopeJson } from '../../src/webhooks/envelope.js';
import { WEBHOOK_EVENT_TYPES } from '../../src/webhooks/event-types.js';
import { newMessageId } from '../../src/webhooks/outbox.js';
import {
  isEndpointSecret,
  newEndpointSecret,
  signDelivery,
  signatureMatches,
} from '../../src/webhooks/signature.js';
import { assertWebhookMatches, openApiDocument } from '../support/openapi-contract.js';

/** One envelope as the delivery worker sends it, with its headers. */
function delivery(secrets: string[], timestamp = Math.floor(Date.now() / 1000)) {
  const messageId = newMessageId();
  const body = envelopeJson({
    messageId,
    source: 'https://api.example.test',
    type: 'interview.event.created.v1',
    subject: 'e1',
    time: Date.UTC(2026, 10, 26, 12, 0, 0, 123),
    sequence: 7,
    data: { eventId: 'e1', employerId: 'emp1', status: 'SCHEDULED' },
  });
  const headers = {
    ...signDelivery(messageId, timestamp, body, secrets),
    'content-type': ENVELOPE_CONTENT_TYPE,
  };
  return { messageId, body, headers };
}

describe('webhook envelope and signature', () => {
  it('new secrets are whsec_ and 32 random bytes', () => {
    const secret = newEndpointSecret();
    assert.ok(isEndpointSecret(secret));
    assert.notEqual(secret, newEndpointSecret());
    assert.equal(isEndpointSecret('whsec_c2hvcnQ='), false);
    assert.equal(isEndpointSecret('sk_' + secret.slice(6)), false);
  });

  it('the standardwebhooks library verifies the signature, with either secret after a rotation', () => {
    const [previous, current] = [newEndpointSecret(), newEndpointSecret()];
    const { body, headers } = delivery([current, previous]);
    for (const secret of [current, previous]) {
      const payload = new Webhook(secret).verify(body, headers) as { id: string };
      assert.equal(payload.id, headers['webhook-id']);
    }
    assert.throws(() => new Webhook(newEndpointSecret()).verify(body, headers));
    // A changed body, id or timestamp no longer verifies.
    assert.throws(() => new Webhook(current).verify(body.replace('e1', 'e2'), headers));
    assert.throws(() =>
      new Webhook(current).verify(body, { ...headers, 'webhook-id': newMessageId() }),
    );
  });

  it('signatureMatches agrees with the library', () => {
    const secret = newEndpointSecret();
    const timestamp = 1_800_000_000;
    const { messageId, body, headers } = delivery([secret], timestamp);
    const header = headers['webhook-signature'];
    assert.ok(signatureMatches(header, messageId, timestamp, body, secret));
    assert.ok(!signatureMatches(header, messageId, timestamp + 1, body, secret));
    assert.ok(!signatureMatches(header, messageId, timestamp, body, newEndpointSecret()));
    assert.ok(!signatureMatches('v2,abc', messageId, timestamp, body, secret));
  });

  it('the cloudevents SDK reads the envelope, its extensions included', () => {
    const { messageId, body, headers } = delivery([newEndpointSecret()]);
    const event = HTTP.toEvent({ headers, body });
    assert.ok(!Array.isArray(event));
    const single = event as ReturnType<typeof HTTP.toEvent> & Record<string, unknown>;
    assert.equal(single.specversion, '1.0');
    assert.equal(single.id, messageId);
    assert.equal(single.type, 'interview.event.created.v1');
    assert.equal(single.subject, 'e1');
    assert.equal(single.source, 'https://api.example.test');
    assert.equal(single.time, '2026-11-26T12:00:00.123Z');
    assert.equal(single.idempotencykey, messageId);
    assert.equal(single.sequence, '0000000007');
    assert.deepEqual(single.data, { eventId: 'e1', employerId: 'emp1', status: 'SCHEDULED' });
  });

  it('matches the webhooks of openapi.yaml, and every interview type is documented there', () => {
    const { body, headers } = delivery([newEndpointSecret()]);
    assertWebhookMatches({ headers: new Headers(headers), body });
    const documented = Object.keys(
      (openApiDocument() as unknown as { webhooks: Record<string, unknown> }).webhooks,
    );
    assert.deepEqual(documented.sort(), [...WEBHOOK_EVENT_TYPES].sort());
  });
});
