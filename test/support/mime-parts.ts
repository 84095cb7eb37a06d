/** One leaf part of a MIME message: its headers (names lower-cased) and its decoded text. */
export interface MimePart {
  headers: Record<string, string>;
  text: string;
}

/**
 * The leaf parts of a raw message, decoded (base64, quoted-printable or as is): enough to read
 * what nodemailer writes, no general MIME parser. Parts of nested multiparts are found too.
 */
export function mimeParts(raw: string): MimePart[] {
  const boundaries = [...raw.matchAll(/boundary="?([^";\r\n]+)"?/gi)].map((match) => match[1]!);
  const parts: MimePart[] = [];
  for (const boundary of boundaries) {
    const chunks = raw.split(`--${boundary}`).slice(1);
    for (const chunk of chunks) {
      if (chunk.startsWith('--')) continue;
      const split = chunk.indexOf('\r\n\r\n');
      if (split < 0) continue;
      const headers = parseHeaders(chunk.slice(0, split));
      if (/^multipart\//i.test(headers['content-type'] ?? '')) continue;
      parts.push({ headers, text: decode(chunk.slice(split + 4), headers) });
    }
  }
  return parts;
}

function parseHeaders(block: string): Record<string, string> {
  const headers: Record<string, string> = {};
  // Folded header lines continue with white space.
  for (const line of block
    .trim()
    .replace(/\r\n[ \t]+/g, ' ')
    .split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function decode(body: string, headers: Record<string, string>): string {
  const encoding = (headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  const content = body.replace(/\r\n$/, '');
  if (encoding === 'base64') return Buffer.from(content.replace(/\s+/g, ''), 'base64').toString();
  if (encoding === 'quoted-printable') {
    const bytes = content
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return content;
}
