import { GraphQLError } from 'graphql';
import type { Logger } from 'pino';
import { TemporarilyUnavailable } from '../../errors.js';
import type { DocumentCache, PreparedDocument } from '../document.js';
import type { ErrorCode } from '../errors.js';
import type { PersistedDocuments } from './persisted-documents.js';
import type { RequestedDocument } from './persisted-request.js';

/**
 * The parsed and validated document a request names, by text or by hash. A hash is looked up in
 * the document cache first, then in the database (a document another process registered), and
 * an APQ client's text is stored under its hash once it validates. With `persistedOnly`, only
 * documents already stored run: a text is refused with PERSISTED_QUERY_REQUIRED, and so is an
 * APQ registration.
 */
export class RequestedDocuments {
  constructor(
    private readonly cache: DocumentCache,
    private readonly persisted: PersistedDocuments,
    private readonly persistedOnly: boolean,
    private readonly logger: Logger,
  ) {}

  /** A text, or a hash this process has validated already, needs no lookup: answered at once. */
  prepare(requested: RequestedDocument): PreparedDocument | Promise<PreparedDocument> {
    if (requested.kind === 'text') {
      return this.persistedOnly ? persistedRequired() : this.cache.prepare(requested.query);
    }
    if (requested.kind === 'automatic' && requested.query !== undefined) {
      return this.register(requested.hash, requested.query);
    }
    const cached = this.cache.cachedPersisted(requested.hash);
    // A failure cached under a hash is a text that was sent but not stored: not a document.
    return cached && 'document' in cached ? cached : this.lookUp(requested);
  }

  private async lookUp(requested: RequestedDocument & { hash: string }): Promise<PreparedDocument> {
    const text = await this.persisted.find(requested.hash);
    if (text !== undefined) return this.cache.preparePersisted(requested.hash, text);
    return requested.kind === 'documentId'
      ? refused(
          'No document is persisted with this documentId: register it with `cli graphql ' +
            'persist`, or send it once with its hash in extensions.persistedQuery',
          'PERSISTED_QUERY_NOT_FOUND',
        )
      : // The message Apollo's persisted query link (and others) recognise.
        refused('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND');
  }

  /**
   * An APQ client sends the text after PERSISTED_QUERY_NOT_FOUND: it is stored whatever this
   * process has cached, so that the process that did not know it finds it next time.
   */
  private async register(hash: string, text: string): Promise<PreparedDocument> {
    if (this.persistedOnly) {
      const stored = await this.persisted.find(hash);
      return stored === undefined ? persistedRequired() : this.cache.preparePersisted(hash, stored);
    }
    const prepared = this.cache.preparePersisted(hash, text);
    // Only a valid document is stored; an invalid one gets its errors, as a text would.
    if ('document' in prepared) await this.storeAutomatic(hash, text);
    return prepared;
  }

  /** The document runs even when it cannot be stored now; the client sends it again later. */
  private async storeAutomatic(hash: string, text: string): Promise<void> {
    try {
      const outcome = await this.persisted.storeAutomatic(hash, text);
      if (outcome === 'full') {
        this.logger.warn(
          { hash },
          'persisted document not stored: registered documents fill GRAPHQL_PERSISTED_DOCUMENTS_MAX',
        );
      }
    } catch (error) {
      if (!(error instanceof TemporarilyUnavailable)) throw error;
      this.logger.warn({ err: error, hash }, 'persisted document not stored: database busy');
    }
  }
}

function persistedRequired(): PreparedDocument {
  return refused(
    'This server runs persisted documents only: send the hash of a document registered with ' +
      '`cli graphql persist` ("documentId", or extensions.persistedQuery without "query")',
    'PERSISTED_QUERY_REQUIRED',
  );
}

function refused(message: string, code: ErrorCode): PreparedDocument {
  return { errors: [new GraphQLError(message, { extensions: { code } })] };
}
