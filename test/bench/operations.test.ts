import assert from 'node:assert/strict';
import { buildSchema, parse, validate } from 'graphql';
import * as operations from '../../bench/operations.js';
import { loadTypeDefs } from '../../src/graphql/schema.js';

const schema = buildSchema(loadTypeDefs());

describe('benchmark GraphQL operations', () => {
  const documents = Object.entries(operations as Record<string, unknown>).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  );

  it('has the operations of every GraphQL scenario', () => {
    assert.ok(documents.length >= 5, `only ${documents.length} documents`);
  });

  for (const [name, document] of documents) {
    it(`${name} is valid against the schema`, () => {
      assert.deepEqual(
        validate(schema, parse(document)).map((error) => error.message),
        [],
      );
    });
  }
});
