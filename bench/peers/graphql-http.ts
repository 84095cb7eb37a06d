/**
 * Peer of the GraphQL gateway: bare graphql-http on Express 5 answering `{ __typename }`, with
 * a JSON body limit in front (graphql-http has none) and a parse-and-validate document cache:
 * an LRU by query text that keeps failures too. Returning our own arguments from onSubscribe
 * skips graphql-http's validation, so a cache miss validates here.
 */
import { createServer } from 'node:http';
import express from 'express';
import {
  GraphQLError,
  buildSchema,
  parse,
  validate,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import { createHandler } from 'graphql-http/lib/use/express';
import { announce, listenOnLoopback } from './announce.js';

const DOCUMENT_CACHE_SIZE = 1000;

class DocumentCache {
  private readonly entries = new Map<string, DocumentNode | readonly GraphQLError[]>();

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly size: number,
  ) {}

  /** The parsed and validated document, or the errors that parsing or validating found. */
  get(query: string): DocumentNode | readonly GraphQLError[] {
    const cached = this.entries.get(query);
    if (cached) {
      // Most recently used last: Map keeps insertion order.
      this.entries.delete(query);
      this.entries.set(query, cached);
      return cached;
    }
    const entry = this.compile(query);
    this.entries.set(query, entry);
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
    return entry;
  }

  private compile(query: string): DocumentNode | readonly GraphQLError[] {
    let document: DocumentNode;
    try {
      document = parse(query);
    } catch (error) {
      return [error instanceof GraphQLError ? error : new GraphQLError(String(error))];
    }
    const errors = validate(this.schema, document);
    return errors.length ? errors : document;
  }
}

const schema = buildSchema('type Query { hello: String }');
const documents = new DocumentCache(schema, DOCUMENT_CACHE_SIZE);

const app = express();
app.use(express.json({ limit: '100kb' }));
app.post(
  '/graphql',
  createHandler({
    schema,
    rootValue: { hello: 'world' },
    onSubscribe(_request, params) {
      const document = documents.get(params.query);
      if (!('kind' in document)) return document;
      return {
        schema,
        document,
        rootValue: { hello: 'world' },
        variableValues: params.variables,
        operationName: params.operationName,
      };
    },
  }),
);
announce(await listenOnLoopback(createServer(app)));
