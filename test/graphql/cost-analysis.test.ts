import assert from 'node:assert/strict';
import { buildSchema, getOperationAST, parse } from 'graphql';
import { CostDirectives } from '../../src/graphql/limits/cost-directives.js';
import { compileOperationCost } from '../../src/graphql/limits/cost-plan.js';
import { UNSIZED_LIST_ITEMS } from '../../src/graphql/limits/cost-model.js';

const DIRECTIVES = `
directive @cost(weight: String!) on ARGUMENT_DEFINITION | ENUM | FIELD_DEFINITION | INPUT_FIELD_DEFINITION | OBJECT | SCALAR
directive @listSize(assumedSize: Int, slicingArguments: [String!], sizedFields: [String!], requireOneSlicingArgument: Boolean = true) on FIELD_DEFINITION
`;

const schema = buildSchema(`${DIRECTIVES}
type Query {
  users(max: Int): [User] @listSize(slicingArguments: ["max"])
  page(first: Int, last: Int): UserConnection!
    @listSize(assumedSize: 10, slicingArguments: ["first", "last"], sizedFields: ["nodes"], requireOneSlicingArgument: false)
  byIds(input: ByIds!): [User]! @listSize(slicingArguments: ["input.ids"])
  everyone: [User!]!
  pricey: Report @cost(weight: "5")
  search: [Result!]! @listSize(assumedSize: 3)
}
input ByIds { ids: [ID!]! }
type User { name: String age: Int @cost(weight: "2") friends: [User!]! @listSize(assumedSize: 4) }
type UserConnection { nodes: [User!]! total: Int }
type Report @cost(weight: "3") { title: String }
type Admin { name: String reports: [Report!]! @listSize(assumedSize: 2) }
union Result = User | Admin
`);
const directives = new CostDirectives(schema);

function cost(query: string, variables: Record<string, unknown> = {}): number {
  const document = parse(query);
  return compileOperationCost(directives, document, getOperationAST(document)!)(variables);
}

describe('cost analysis from @cost and @listSize', () => {
  it('sizes lists by a slicing argument, literal or variable, else assumedSize', () => {
    assert.equal(cost('{ users(max: 5) { name } }'), 5);
    assert.equal(cost('query($n: Int) { users(max: $n) { name } }', { n: 7 }), 7);
    assert.equal(cost('{ page { nodes { name } } }'), 1 + 10);
    assert.equal(cost('{ page(first: 3) { nodes { name } total } }'), 1 + 3);
    assert.equal(cost('{ page(first: 3, last: 8) { nodes { name } } }'), 1 + 8, 'the largest');
  });

  it('sizes by the length of a list given in an input object, literally or by variable', () => {
    assert.equal(cost('{ byIds(input: { ids: ["a", "b"] }) { name } }'), 2);
    assert.equal(
      cost('query($ids: [ID!]!) { byIds(input: { ids: $ids }) { name } }', {
        ids: ['a', 'b', 'c'],
      }),
      3,
    );
    assert.equal(cost('query($i: ByIds!) { byIds(input: $i) { name } }', { i: { ids: ['a'] } }), 1);
  });

  it('refuses a field that needs exactly one slicing argument without it', () => {
    assert.throws(
      () => cost('query($n: Int) { users(max: $n) { name } }', {}),
      /Query\.users needs exactly one of "max"/,
    );
  });

  it('counts unsized lists as UNSIZED_LIST_ITEMS, and field and type weights', () => {
    assert.equal(cost('{ everyone { name } }'), UNSIZED_LIST_ITEMS);
    // A field's weight replaces its type's: age weighs 2 on each of 5 users.
    assert.equal(cost('{ users(max: 5) { age } }'), 5 * (1 + 2));
    assert.equal(cost('{ pricey { title } }'), 5, "the field's 5, not the type's 3");
  });

  it('counts each alias, a fragment once per place, and one response key once', () => {
    const one = cost('{ users(max: 2) { friends { name } } }');
    assert.equal(one, 2 * (1 + 4));
    assert.equal(
      cost('{ a: users(max: 2) { friends { name } } b: users(max: 2) { friends { name } } }'),
      2 * one,
    );
    assert.equal(
      cost(
        '{ users(max: 2) { ...F ...F friends { name } } } fragment F on User { friends { age } }',
      ),
      one + 2 * 4 * 2,
      'merged: the friends once, with their age weighed',
    );
    // Fragments spread many times over stay linear: no answer could repeat them.
    const chain = Array.from(
      { length: 40 },
      (_, i) => `fragment F${i} on User { ...F${i + 1} ...F${i + 1} }`,
    ).join(' ');
    assert.equal(cost(`{ users(max: 1) { ...F0 } } ${chain} fragment F40 on User { age }`), 1 + 2);
  });

  it('costs an interface or union as its costliest possible type', () => {
    assert.equal(
      cost('{ search { ... on User { name } ... on Admin { reports { title } } } }'),
      3 * Math.max(1, 1 + 2 * 3),
    );
  });

  it('leaves introspection out', () => {
    assert.equal(cost('{ __schema { types { fields { name } } } }'), 0);
  });

  it('refuses a schema that uses the directives wrongly, naming each field', () => {
    assert.throws(
      () =>
        new CostDirectives(
          buildSchema(`${DIRECTIVES}
          type Query {
            a(first: Int): [Query] @listSize(slicingArguments: ["last"])
            b: Query @listSize(assumedSize: 3, sizedFields: ["nope"])
            c: Int @cost(weight: "heavy")
            d(x: Int @cost(weight: "1")): Int
          }`),
        ),
      (error: Error) =>
        /Query\.a: @listSize slicing argument "last" does not exist/.test(error.message) &&
        /Query\.b: @listSize sized field "nope" is no list/.test(error.message) &&
        /Query\.c: @cost\(weight: "heavy"\) is no number/.test(error.message) &&
        /Query\.d\(x\): @cost on an argument is not read here/.test(error.message),
    );
  });
});
