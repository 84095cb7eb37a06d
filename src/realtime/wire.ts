import type { RealtimeMessage } from './bus.js';

/** The message as every transport carries it: JSON text. Throws if it cannot be. */
export function encodeMessage(message: RealtimeMessage): string {
  if (typeof message.topic !== 'string' || message.topic === '') {
    throw new TypeError('a realtime message needs a topic');
  }
  return JSON.stringify({ topic: message.topic, body: message.body });
}

/** The message in `text`, or undefined if it is not one. */
export function decodeMessage(text: string): RealtimeMessage | undefined {
  let decoded: unknown;
  try {
    decoded = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof decoded !== 'object' || decoded === null) return undefined;
  const { topic, body } = decoded as Record<string, unknown>;
  return typeof topic === 'string' ? { topic, body } : undefined;
}
