import assert from 'node:assert/strict';
import {
  buildSchema,
  getOperationAST,
  parse,
  validate,
  type OperationDefinitionNode,
} from 'graphql';
import { getVariableValues } from 'graphql/execution/values.js';
import { EXAMPLES } from '../../client/explorer/examples.js';
import { loadTypeDefs } from '../../src/graphql/schema.js';

const schema = buildSchema(loadTypeDefs());

/**
 * The root field each example calls: the five operations of the Interview API, Disposition
 * Sync's send and the read-back of what was sent, and jobSearch.
 */
const OPERATIONS = [
  'createVirtualInterviewEvent',
  'updateVirtualInterviewEvent',
  'cancelVirtualInterviewEvent',
  'virtualInterviewEvents',
  'findVirtualInterviewEvents',
  'partnerDisposition',
  'partnerDispositions',
  'jobSearch',
];

describe('the API explorer saved examples', () => {
  it('are one example for each operation of the Interview API, Disposition Sync and job search', () => {
    const called = EXAMPLES.map(({ query }) => {
      const operation = getOperationAST(parse(query));
      assert.ok(operation, query);
      const [field] = operation.selectionSet.selections;
      assert.equal(field?.kind, 'Field');
      return field.name.value;
    });
    assert.deepEqual(called, OPERATIONS);
  });

  for (const [index, example] of EXAMPLES.entries()) {
    it(`validate against the schema: ${OPERATIONS[index]}`, () => {
      const document = parse(example.query);
      assert.deepEqual(
        validate(schema, document).map((error) => error.message),
        [],
      );
      const operation = getOperationAST(document) as OperationDefinitionNode;
      assert.equal(operation.name?.value, OPERATIONS[index], 'named after the operation');
      const coerced = getVariableValues(
        schema,
        operation.variableDefinitions ?? [],
        JSON.parse(example.variables) as Record<string, unknown>,
      );
      assert.deepEqual(
        coerced.errors?.map((error) => error.message) ?? [],
        [],
        'the variables fit the operation',
      );
    });
  }
});
