import { z } from 'zod';
import type { PageMessage } from './messages.js';

/**
 * The service's check of what a page sends (`PageMessage`): anything else is refused before
 * anything acts on it. The page's live connection stays open after a refusal (the service
 * answers `invalid` and carries on), so a page from before an upgrade of the protocol is not
 * cut off in the middle of an interview; the per-connection rate cap bounds what a page can
 * make it answer.
 */

/** Largest text a field may carry: the connection's largest message (64 KiB) bounds it too. */
const LONGEST_TEXT = 64 * 1024;
/** Live connection ids are UUIDs. */
const CONNECTION_ID = /^[0-9a-f-]{36}$/;

const text = z.string().max(LONGEST_TEXT);
const nullableText = text.nullable().optional();

const signalData = z.union([
  z.object({
    description: z.object({
      type: z.enum(['offer', 'answer', 'pranswer', 'rollback']),
      sdp: text.optional(),
    }),
  }),
  z.object({
    candidate: z.object({
      candidate: text,
      sdpMid: nullableText,
      sdpMLineIndex: z.number().int().min(0).max(65535).nullable().optional(),
      usernameFragment: nullableText,
    }),
  }),
]);

const pageMessage = z.discriminatedUnion('type', [
  // Without `video`, as from a page that has no camera: audio only.
  z.object({ type: z.literal('join'), video: z.boolean().default(false) }),
  z.object({ type: z.literal('leave') }),
  z.object({ type: z.literal('signal'), to: z.string().regex(CONNECTION_ID), data: signalData }),
  z.object({ type: z.literal('media'), microphoneOn: z.boolean(), cameraOn: z.boolean() }),
  z.object({ type: z.literal('admit') }),
  z.object({ type: z.literal('send-back') }),
]) satisfies z.ZodType<PageMessage>;

export type PageMessageCheck = { ok: true; message: PageMessage } | { ok: false; problem: string };

/** The page's message, or what is wrong with it, in words the page can show a developer. */
export function readPageMessage(raw: string): PageMessageCheck {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return { ok: false, problem: 'The message is not JSON.' };
  }
  const parsed = pageMessage.safeParse(value);
  if (parsed.success) return { ok: true, message: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? ` at ${issue.path.join('.')}` : '';
  return { ok: false, problem: `The message is not one the room understands${where}.` };
}
