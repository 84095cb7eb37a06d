import {
  GraphQLError,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type GraphQLSchema,
  type ValidationRule,
} from 'graphql';
import type { GraphQLLimits } from '../config.js';
import type { ErrorCode } from './errors.js';
import { knownOperationTypesRule } from './known-operation-types.js';
import { maxAliasesRule } from './limits/alias-limit.js';
import { maxDepthRule } from './limits/depth-limit.js';
import { nestingLimitError } from './limits/nesting-limit.js';

export type PreparedDocument = { document: DocumentNode } | { errors: readonly GraphQLError[] };

export type DocumentLimits = Pick<
  GraphQLLimits,
  'maxDepth' | 'maxAliases' | 'maxTokens' | 'documentCacheSize'
>;

/**
 * Query text the cache may hold per entry on average. A parsed document takes about a hundred
 * times its text in memory, so this caps the cache at roughly 50 kB per entry however large the
 * documents sent to it are; a query executed often enough to be compiled
 * (src/graphql/compiled-execution.ts) keeps about as much again beside its document.
 */
const CACHED_CHARACTERS_PER_ENTRY = 500;

const stats = { hits: 0, misses: 0 };

/** Process-wide counts of cache lookups; every miss parses and validates a document. */
export function documentCacheStats(): { hits: number; misses: number } {
  return { ...stats };
}

/** A cached outcome, the length of the text it came from, and how it is keyed. */
interface Entry {
  prepared: PreparedDocument;
  characters: number;
  /** Keyed by a persisted document's hash rather than by query text. */
  byHash: boolean;
}

/**
 * Parses and validates queries (graphql's specified rules plus the depth and alias limits) and
 * remembers the outcome, success or failure, in a least-recently-used cache: by query text, or
 * for a persisted document by its hash (src/graphql/persisted/), so that a request naming it
 * needs neither its text nor any work. Validation dominates the cost of small requests, and
 * the outcome depends only on the text.
 */
export class DocumentCache {
  // A Map iterates in insertion order, so re-inserting an entry on use keeps the least recently
  // used one first.
  private readonly entries = new Map<string, Entry>();
  private cachedCharacters = 0;
  private readonly maxCharacters: number;
  private readonly rules: readonly ValidationRule[];

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly limits: DocumentLimits,
  ) {
    this.rules = [
      ...specifiedRules,
      knownOperationTypesRule,
      maxDepthRule(limits.maxDepth),
      maxAliasesRule(limits.maxAliases),
    ];
    this.maxCharacters = limits.documentCacheSize * CACHED_CHARACTERS_PER_ENTRY;
  }

  prepare(query: string): PreparedDocument {
    return this.cached(query, false) ?? this.prepareAndRemember(query, query, false);
  }

  /** A persisted document's outcome, cached by its hash (a text is one key, a hash another). */
  preparePersisted(hash: string, query: string): PreparedDocument {
    return this.cached(hash, true) ?? this.prepareAndRemember(hash, query, true);
  }

  /** The outcome cached for the persisted document with this hash, if any. */
  cachedPersisted(hash: string): PreparedDocument | undefined {
    return this.cached(hash, true);
  }

  private cached(key: string, byHash: boolean): PreparedDocument | undefined {
    const entry = this.entries.get(key);
    // A query text may spell a hash: it never stands for the persisted document.
    if (entry?.byHash !== byHash) return undefined;
    stats.hits += 1;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.prepared;
  }

  private prepareAndRemember(key: string, query: string, byHash: boolean): PreparedDocument {
    stats.misses += 1;
    const prepared = prepareDocument(this.schema, query, this.limits.maxTokens, this.rules);
    this.remember(key, { prepared, characters: query.length, byHash });
    return prepared;
  }

  private remember(key: string, entry: Entry): void {
    if (entry.characters > this.maxCharacters) return;
    this.forget(key);
    this.entries.set(key, entry);
    this.cachedCharacters += entry.characters;
    while (
      this.entries.size > this.limits.documentCacheSize ||
      this.cachedCharacters > this.maxCharacters
    ) {
      const [oldest] = this.entries.keys();
      if (oldest === undefined) break;
      this.forget(oldest);
    }
  }

  private forget(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.cachedCharacters -= entry.characters;
  }
}

/**
 * Parses and validates a query, tagging failures with GRAPHQL_PARSE_FAILED (the token and
 * nesting limits included, which keep the parser within its means) or
 * GRAPHQL_VALIDATION_FAILED, so that clients can tell a malformed document from a bad input.
 */
export function prepareDocument(
  schema: GraphQLSchema,
  query: string,
  maxTokens: number,
  rules: readonly ValidationRule[],
): PreparedDocument {
  const tooDeep = nestingLimitError(query, maxTokens);
  if (tooDeep) return { errors: [tagged(tooDeep, 'GRAPHQL_PARSE_FAILED')] };
  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens });
  } catch (error) {
    if (!(error instanceof GraphQLError)) throw error;
    return { errors: [tagged(reworded(error, maxTokens), 'GRAPHQL_PARSE_FAILED')] };
  }
  const errors = validate(schema, document, rules);
  if (errors.length) return { errors: errors.map((e) => tagged(e, 'GRAPHQL_VALIDATION_FAILED')) };
  return { document };
}

/** graphql's own message for the token limit is terse (and misspelt); say which limit it is. */
function reworded(error: GraphQLError, maxTokens: number): GraphQLError {
  if (!TOKEN_LIMIT_MESSAGE.test(error.message)) return error;
  return new GraphQLError(`The document is longer than the limit of ${maxTokens} tokens.`, {
    source: error.source,
    positions: error.positions,
  });
}

const TOKEN_LIMIT_MESSAGE = /^Syntax Error: Document contains more th(?:an|at) \d+ tokens\./;

/**
 * The error with a code. Rebuilt from source and positions rather than AST nodes, so that a cached
 * failure does not keep the parsed document alive.
 */
function tagged(error: GraphQLError, code: ErrorCode): GraphQLError {
  return new GraphQLError(error.message, {
    source: error.source,
    positions: error.positions,
    extensions: { ...error.extensions, code },
  });
}
