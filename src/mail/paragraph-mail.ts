import type { Mail } from './mailer.js';

/** What the service's mails are signed with. */
const SIGNATURE = '— Hiring partner';

/** A paragraph of text, or a link on a paragraph of its own (clickable in the HTML part). */
export type Paragraph = string | { link: string };

/** A signed mail of paragraphs: as a text part, and as HTML with the links clickable. */
export function paragraphMail(to: string, subject: string, paragraphs: readonly Paragraph[]): Mail {
  const all = [...paragraphs, SIGNATURE];
  return {
    to,
    subject,
    text: all
      .map((paragraph) => (typeof paragraph === 'string' ? paragraph : paragraph.link))
      .join('\n\n'),
    html: all
      .map((paragraph) =>
        typeof paragraph === 'string'
          ? `<p>${escapeHtml(paragraph)}</p>`
          : `<p><a href="${escapeHtml(paragraph.link)}">${escapeHtml(paragraph.link)}</a></p>`,
      )
      .join('\n'),
  };
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}
