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
 * Each example's operation name and the root field it calls: the five operations of the
 * Interview API, Employer Data, Job Sync (its creation and expiry under `jobsIngest`, and the
 * status by `node`), Disposition Sync's send and the read-back of what was sent, and jobSearch.
 */
const OPERATIONS: ReadonlyArray<readonly [name: string, root: string]> = [
  ['createVirtualInterviewEvent', 'createVirtualInterviewEvent'],
  ['updateVirtualInterviewEvent', 'updateVirtualInterviewEvent'],
  ['cancelVirtualInterviewEvent', 'cancelVirtualInterviewEvent'],
  ['virtualInterviewEvents', 'virtualInterviewEvents'],
  ['findVirtualInterviewEvents', 'findVirtualInterviewEvents'],
  ['patchEmployer', 'patchEmployer'],
  ['createSourcedJobPostings', 'jobsIngest'],
  ['node', 'node'],
  ['expireSourcedJobsBySourcedPostingId', 'jobsIngest'],
  ['partnerDisposition', 'partnerDisposition'],
  ['partnerDispositions', 'partnerDispositions'],
  ['jobSearch', 'jobSearch'],
];

describe('the API explorer saved examples', () => {
  it('are one example for each operation of the Interview API and the Jobs APIs', () => {
    const called = EXAMPLES.map(({ query }) => {
      const operation = getOperationAST(parse(query));
      assert.ok(operation, query);
      const [field] = operation.selectionSet.selections;
      assert.equal(field?.kind, 'Field');
      return field.name.value;
    });
    assert.deepEqual(
      called,
      OPERATIONS.map(([, root]) => root),
    );
  });

  for (const [index, example] of EXAMPLES.entries()) {
    const [name] = OPERATIONS[index]!;
    it(`validate against the schema: ${name}`, () => {
      const document = parse(example.query);
      assert.deepEqual(
        validate(schema, document).map((error) => error.message),
        [],
      );
      const operation = getOperationAST(document) as OperationDefinitionNode;
      assert.equal(operation.name?.value, name, 'named after the operation');
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
