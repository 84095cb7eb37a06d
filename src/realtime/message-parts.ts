/**
 * Messages longer than a transport's payload limit travel as parts:
 * `<message id>:<index>:<count>:<text>`, where the texts of parts 0 … count-1, joined, are
 * the message. A message id never contains `:`.
 */

/** Room kept in each part for the header's index and count (up to six digits each). */
const HEADER_DIGITS = 12;
const MAX_PARTS = 999_999;

/** `text` in parts of at most `maxPartBytes` UTF-8 bytes each, header included. */
export function splitIntoParts(text: string, messageId: string, maxPartBytes: number): string[] {
  if (messageId.includes(':')) throw new Error(`a message id may not contain ':': ${messageId}`);
  const room = maxPartBytes - Buffer.byteLength(messageId) - HEADER_DIGITS - 3;
  // A character takes up to four bytes: less room could leave a part with none.
  if (room < 4) throw new Error(`parts of ${maxPartBytes} bytes leave no room for text`);
  const bytes = Buffer.from(text, 'utf8');
  const texts: string[] = [];
  for (let start = 0; start < bytes.length || texts.length === 0;) {
    let end = Math.min(start + room, bytes.length);
    // Never between the bytes of one character: back up over continuation bytes (10xxxxxx).
    while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end--;
    texts.push(bytes.toString('utf8', start, end));
    start = end;
  }
  if (texts.length > MAX_PARTS) throw new Error(`a message of ${bytes.length} bytes is too long`);
  return texts.map((part, index) => `${messageId}:${index}:${texts.length}:${part}`);
}

interface PartialMessage {
  texts: string[];
  received: number;
  firstSeenAt: number;
}

/**
 * Puts messages back together from their parts, whatever their senders, as parts arrive.
 * A message whose parts do not all arrive within `maxAgeMs` is dropped, so memory stays bounded
 * by what arrives in that time.
 */
export class MessageAssembler {
  private readonly partial = new Map<string, PartialMessage>();

  constructor(
    private readonly maxAgeMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** The whole message once `part` completes it; undefined before, or if `part` is not one. */
  add(part: string): string | undefined {
    this.dropExpired();
    const parsed = parsePart(part);
    if (!parsed) return undefined;
    const { id, index, count, text } = parsed;
    if (count === 1) return text;
    let message = this.partial.get(id);
    if (!message) {
      message = { texts: new Array<string>(count), received: 0, firstSeenAt: this.now() };
      this.partial.set(id, message);
    }
    if (message.texts.length !== count || message.texts[index] !== undefined) return undefined;
    message.texts[index] = text;
    if (++message.received < count) return undefined;
    this.partial.delete(id);
    return message.texts.join('');
  }

  /** Messages still waiting for parts. */
  get pending(): number {
    return this.partial.size;
  }

  private dropExpired(): void {
    const oldestKept = this.now() - this.maxAgeMs;
    // A Map iterates in insertion order: the oldest first.
    for (const [id, message] of this.partial) {
      if (message.firstSeenAt > oldestKept) break;
      this.partial.delete(id);
    }
  }
}

function parsePart(part: string) {
  const match = /^([^:]+):(\d{1,6}):(\d{1,6}):/.exec(part);
  if (!match) return undefined;
  const index = Number(match[2]);
  const count = Number(match[3]);
  if (count < 1 || index >= count) return undefined;
  return { id: match[1]!, index, count, text: part.slice(match[0].length) };
}
