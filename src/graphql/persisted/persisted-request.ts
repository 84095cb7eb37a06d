import { createHash } from 'node:crypto';

/**
 * The document a GraphQL request names: its text (`query`), or a persisted document's hash —
 * from `documentId` (persisted documents of GraphQL over HTTP) or from
 * `extensions.persistedQuery` (Apollo's automatic persisted queries), with the text too when an
 * APQ client registers it.
 */
export type RequestedDocument =
  | { kind: 'text'; query: string }
  | { kind: 'documentId'; hash: string }
  | { kind: 'automatic'; hash: string; query?: string };

/** The only version of Apollo's persisted query protocol. */
const APQ_VERSION = 1;
const SHA256_HEX = /^[0-9a-f]{64}$/i;
const DOCUMENT_ID_PREFIX = 'sha256:';

/** Lower-case hexadecimal SHA-256 of a document's text, as UTF-8: what names it. */
export function documentHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** `sha256:<hash>`: the documentId of a persisted document. */
export function documentIdOf(hash: string): string {
  return `${DOCUMENT_ID_PREFIX}${hash}`;
}

/**
 * Reads the document of a request body's `query`, `documentId` and `extensions`, already known
 * to be JSON objects or absent; else what is wrong with them, for a 400. Messages never repeat
 * the input, which may be large. A text sent with an APQ hash must hash to it: a client cannot
 * register a document under another's hash.
 */
export function readRequestedDocument(body: {
  query?: unknown;
  documentId?: unknown;
  extensions?: Record<string, unknown> | null;
}): RequestedDocument | { problem: string } {
  const { query, documentId } = body;
  const persistedQuery = body.extensions?.persistedQuery;
  if (query != null && typeof query !== 'string') return { problem: '"query" must be a string' };
  if (documentId != null) {
    if (query != null) return { problem: 'Send either "query" or "documentId", not both' };
    if (persistedQuery != null) {
      return { problem: 'Send either "documentId" or "extensions.persistedQuery", not both' };
    }
    const hash = hashOfDocumentId(documentId);
    if (!hash) {
      return {
        problem:
          '"documentId" must be "sha256:" followed by the 64 hexadecimal digits of the ' +
          "SHA-256 of the document's text",
      };
    }
    return { kind: 'documentId', hash };
  }
  if (persistedQuery != null) return readPersistedQuery(persistedQuery, query ?? undefined);
  if (query == null) return { problem: 'Missing query' };
  return { kind: 'text', query };
}

function readPersistedQuery(
  persistedQuery: unknown,
  query: string | undefined,
): RequestedDocument | { problem: string } {
  if (typeof persistedQuery !== 'object' || Array.isArray(persistedQuery) || !persistedQuery) {
    return { problem: '"extensions.persistedQuery" must be a JSON object' };
  }
  const { version, sha256Hash } = persistedQuery as Record<string, unknown>;
  if (version !== APQ_VERSION) {
    return { problem: `"extensions.persistedQuery.version" must be ${APQ_VERSION}` };
  }
  if (typeof sha256Hash !== 'string' || !SHA256_HEX.test(sha256Hash)) {
    return {
      problem:
        '"extensions.persistedQuery.sha256Hash" must be the 64 hexadecimal digits of the ' +
        "SHA-256 of the query's text",
    };
  }
  const hash = sha256Hash.toLowerCase();
  if (query !== undefined && documentHash(query) !== hash) {
    return {
      problem:
        '"extensions.persistedQuery.sha256Hash" is not the SHA-256 of "query": hash the exact ' +
        'text sent, as UTF-8',
    };
  }
  return { kind: 'automatic', hash, ...(query !== undefined && { query }) };
}

/** The hash a documentId names: `sha256:<hex>`, or the 64 hexadecimal digits alone. */
function hashOfDocumentId(documentId: unknown): string | undefined {
  if (typeof documentId !== 'string') return undefined;
  const hex = documentId.startsWith(DOCUMENT_ID_PREFIX)
    ? documentId.slice(DOCUMENT_ID_PREFIX.length)
    : documentId;
  return SHA256_HEX.test(hex) ? hex.toLowerCase() : undefined;
}
