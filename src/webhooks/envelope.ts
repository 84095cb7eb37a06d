/**
 * The CloudEvents 1.0 envelope in structured JSON mode (DESIGN §8), built once when the change is
 * written to the outbox and sent unchanged by every attempt to every endpoint.
 */
export interface EnvelopeFields {
  /** `msg_...`: the envelope's `id`, its `idempotencykey` and the `webhook-id` header. */
  messageId: string;
  /** API_URL. */
  source: string;
  type: string;
  subject: string;
  time: number;
  /** The subject's change number, zero-padded so that it also orders as a string. */
  sequence: number;
  data: Record<string, unknown>;
}

export const ENVELOPE_CONTENT_TYPE = 'application/cloudevents+json; charset=utf-8';

/** Digits of the `sequence` extension: lexicographic order equals numeric order below 10^10. */
const SEQUENCE_DIGITS = 10;

export function envelopeJson(fields: EnvelopeFields): string {
  return JSON.stringify({
    specversion: '1.0',
    id: fields.messageId,
    idempotencykey: fields.messageId,
    source: fields.source,
    type: fields.type,
    subject: fields.subject,
    time: new Date(fields.time).toISOString(),
    datacontenttype: 'application/json',
    sequence: formatSequence(fields.sequence),
    data: fields.data,
  });
}

export function formatSequence(sequence: number): string {
  return String(sequence).padStart(SEQUENCE_DIGITS, '0');
}
