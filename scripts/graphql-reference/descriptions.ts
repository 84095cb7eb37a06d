import { html, joinHtml, type SafeHtml } from './html.js';

/**
 * Where a name written in code in a description leads: the anchor of a type, a schema
 * coordinate (`Type.field`, `@directive`) or a root operation, or null for any other code.
 */
export type CodeLinker = (code: string) => string | null;

const NO_LINKS: CodeLinker = () => null;

/**
 * The Markdown the SDL's descriptions use, rendered safely: paragraphs, `-` and `*` lists,
 * fenced code blocks, code spans (linked when they name something in the reference), `**strong**`
 * and `[text](url)` links to http(s) addresses or to this site. Anything else is shown as text,
 * escaped; there is no raw HTML.
 */
export function renderDescription(text: string, linkCode: CodeLinker = NO_LINKS): SafeHtml {
  const blocks = splitBlocks(text.replace(/\r\n?/g, '\n'));
  return joinHtml(
    blocks.map((block) => renderBlock(block, linkCode)),
    '\n',
  );
}

type Block =
  | { kind: 'paragraph'; text: string }
  | { kind: 'list'; items: string[] }
  | { kind: 'code'; text: string };

const FENCE = /^\s*(`{3,}|~{3,})/;
const LIST_ITEM = /^\s*[-*]\s+(.*)$/;

function splitBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split('\n');
  let paragraph: string[] = [];
  let list: string[] | null = null;
  const flush = () => {
    if (paragraph.length > 0) blocks.push({ kind: 'paragraph', text: paragraph.join(' ') });
    if (list) blocks.push({ kind: 'list', items: list });
    paragraph = [];
    list = null;
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const code: string[] = [];
      for (index++; index < lines.length && !lines[index]!.trim().startsWith(fence[1]!); index++) {
        code.push(lines[index]!);
      }
      blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item && paragraph.length === 0) {
      list ??= [];
      list.push(item[1]!);
    } else if (list && /^\s/.test(line)) {
      // An indented line continues the list item above it.
      list[list.length - 1] += ` ${line.trim()}`;
    } else {
      if (list) flush();
      paragraph.push(line.trim());
    }
  }
  flush();
  return blocks;
}

function renderBlock(block: Block, linkCode: CodeLinker): SafeHtml {
  switch (block.kind) {
    case 'paragraph':
      return html`<p>${renderInline(block.text, linkCode)}</p>`;
    case 'list':
      return html`<ul>
        ${block.items.map((item) => html`<li>${renderInline(item, linkCode)}</li>`)}
      </ul>`;
    case 'code':
      return html`<pre><code>${block.text}</code></pre>`;
  }
}

/**
 * Code spans first (their content is literal, as in CommonMark: a run of n backticks ends at the
 * next run of exactly n), then strong text and links in what is left.
 */
export function renderInline(text: string, linkCode: CodeLinker = NO_LINKS): SafeHtml {
  const parts: SafeHtml[] = [];
  let rest = text;
  for (;;) {
    const opening = /`+/.exec(rest);
    if (!opening) break;
    const ticks = opening[0];
    const after = rest.slice(opening.index + ticks.length);
    const closing = new RegExp(`(?<!\`)${ticks}(?!\`)`).exec(after);
    if (!closing) {
      parts.push(renderEmphasisAndLinks(rest.slice(0, opening.index + ticks.length)));
      rest = after;
      continue;
    }
    parts.push(renderEmphasisAndLinks(rest.slice(0, opening.index)));
    parts.push(codeSpan(stripOneSpace(after.slice(0, closing.index)), linkCode));
    rest = after.slice(closing.index + ticks.length);
  }
  parts.push(renderEmphasisAndLinks(rest));
  return joinHtml(parts, '');
}

function stripOneSpace(code: string): string {
  return code.length > 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim() !== ''
    ? code.slice(1, -1)
    : code;
}

function codeSpan(code: string, linkCode: CodeLinker): SafeHtml {
  const target = linkCode(code);
  return target ? html`<a href="#${target}"><code>${code}</code></a>` : html`<code>${code}</code>`;
}

const STRONG_OR_LINK = /\*\*(?<strong>[^*]+)\*\*|\[(?<text>[^\]]+)\]\((?<url>[^)\s]+)\)/g;

function renderEmphasisAndLinks(text: string): SafeHtml {
  const parts: SafeHtml[] = [];
  let last = 0;
  for (const match of text.matchAll(STRONG_OR_LINK)) {
    const { strong, text: label, url } = match.groups!;
    if (strong === undefined && !isSafeUrl(url!)) continue;
    parts.push(html`${text.slice(last, match.index)}`);
    parts.push(
      strong !== undefined ? html`<strong>${strong}</strong>` : html`<a href="${url}">${label}</a>`,
    );
    last = match.index + match[0].length;
  }
  parts.push(html`${text.slice(last)}`);
  return joinHtml(parts, '');
}

/** An address a reader may follow: http(s), or a path or fragment of this site. */
export function isSafeUrl(url: string): boolean {
  // Not `//host` nor `/\host`, which browsers read as another host.
  return /^https?:\/\/[^\s\\]+$/i.test(url) || /^(\/(?![/\\])|#)[^\s\\]*$/.test(url);
}
