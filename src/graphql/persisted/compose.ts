import type { GraphQLSchema } from 'graphql';
import { ValidationError } from '../../errors.js';
import type { PersistedDocumentSource } from '../../db/rows.js';
import type { SharedDependencies } from '../../shared-dependencies.js';
import { DocumentCache } from '../document.js';
import { PersistedDocumentStore } from './persisted-document-store.js';
import { PersistedDocuments, type StoreOutcome } from './persisted-documents.js';
import { documentHash, documentIdOf } from './persisted-request.js';

export function composePersistedDocuments(shared: SharedDependencies): PersistedDocuments {
  return new PersistedDocuments(
    new PersistedDocumentStore(shared.db),
    shared.clock,
    shared.config.persistedDocuments.maxDocuments,
  );
}

/** One document `cli graphql persist` registered. */
export interface PersistedDocumentView {
  /** Where it came from (the file), as the caller named it. */
  name: string;
  documentId: string;
  /** The names of its operations (null for an anonymous one). */
  operations: Array<string | null>;
  outcome: Exclude<StoreOutcome, 'full'>;
}

/** What the CLI does with persisted documents. */
export interface DocumentRegistration {
  /**
   * Registers documents ahead of time, after checking them all: each is validated as the
   * gateway validates a text (its limits included) and at most BODY_LIMIT_BYTES, so that a
   * registered document is one a client could have sent. ValidationError names the first that
   * is not, and nothing is registered; or says that registered documents fill the store.
   */
  persist(
    documents: ReadonlyArray<{ name: string; text: string }>,
  ): Promise<PersistedDocumentView[]>;
  /** How many documents are stored, by source. */
  counts(): Promise<Record<PersistedDocumentSource, number>>;
}

/** `schema` is built on first use: most CLI runs do not need it, and it takes ~100 ms. */
export function composeDocumentRegistration(
  shared: SharedDependencies,
  schema: () => GraphQLSchema,
): DocumentRegistration {
  const persisted = composePersistedDocuments(shared);
  const { config } = shared;
  let validator: DocumentCache | undefined;

  function checked(name: string, text: string) {
    const bytes = Buffer.byteLength(text, 'utf8');
    if (bytes > config.bodyLimitBytes) {
      throw new ValidationError(
        `${name}: ${bytes} bytes, more than BODY_LIMIT_BYTES (${config.bodyLimitBytes})`,
      );
    }
    validator ??= new DocumentCache(schema(), { ...config.graphql, documentCacheSize: 0 });
    const prepared = validator.prepare(text);
    if ('errors' in prepared) {
      const problems = prepared.errors.map((error) => error.toString());
      throw new ValidationError(`${name}: ${problems.join('\n')}`);
    }
    const operations = prepared.document.definitions.flatMap((definition) =>
      definition.kind === 'OperationDefinition' ? [definition.name?.value ?? null] : [],
    );
    return { name, text, hash: documentHash(text), operations };
  }

  return {
    async persist(documents) {
      const valid = documents.map(({ name, text }) => checked(name, text));
      const views: PersistedDocumentView[] = [];
      for (const { name, text, hash, operations } of valid) {
        const outcome = await persisted.register(hash, text);
        if (outcome === 'full') {
          throw new ValidationError(
            `${name}: registered documents fill GRAPHQL_PERSISTED_DOCUMENTS_MAX ` +
              `(${config.persistedDocuments.maxDocuments}); raise it to register more` +
              (views.length > 0 ? ` (the ${views.length} before it were registered)` : ''),
          );
        }
        views.push({ name, documentId: documentIdOf(hash), operations, outcome });
      }
      return views;
    },
    counts: () => persisted.counts(),
  };
}
