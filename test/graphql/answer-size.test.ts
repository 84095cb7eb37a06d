import assert from 'node:assert/strict';
import { buildSchema, execute, parse, type GraphQLSchema } from 'graphql';
import { AnswerBudget, countAnswers } from '../../src/graphql/limits/answer-size.js';

/** A schema whose lists are as long as the test says, counting how often items are resolved. */
function toySchema(length: () => number, calls: { name: number }): GraphQLSchema {
  const schema = buildSchema(`
    type Query { items: [Item!]! later: [Item!]! text: String }
    type Item { name: String! next: Item }
  `);
  const item = (i: number) => ({ i });
  const fields = (type: string) =>
    (
      schema.getType(type) as unknown as { getFields(): Record<string, { resolve?: unknown }> }
    ).getFields();
  fields('Query').items!.resolve = () => Array.from({ length: length() }, (_, i) => item(i));
  fields('Query').later!.resolve = async () => Array.from({ length: length() }, (_, i) => item(i));
  fields('Query').text!.resolve = () => 'é'.repeat(length());
  fields('Item').name!.resolve = ({ i }: { i: number }) => {
    calls.name += 1;
    return `item ${i}`;
  };
  fields('Item').next!.resolve = ({ i }: { i: number }) => item(i + 1);
  return countAnswers(schema, (context) => (context as { answer: AnswerBudget }).answer);
}

async function run(
  schema: GraphQLSchema,
  query: string,
  limits = { maxNodes: 50, maxBytes: 10_000 },
) {
  const answer = new AnswerBudget(limits);
  const result = await execute({ schema, document: parse(query), contextValue: { answer } });
  return { result, refusal: answer.refusal() };
}

describe('the size of one GraphQL answer, counted while it executes', () => {
  it('answers within the limits as before', async () => {
    const calls = { name: 0 };
    const { result, refusal } = await run(
      toySchema(() => 5, calls),
      '{ items { name next { name } } }',
    );
    assert.equal(refusal, undefined);
    assert.equal(result.errors, undefined);
    assert.equal((result.data!.items as unknown[]).length, 5);
    assert.equal(calls.name, 10);
  });

  it('stops a list past the object limit before any of its items is resolved', async () => {
    const calls = { name: 0 };
    for (const field of ['items', 'later']) {
      const { result, refusal } = await run(
        toySchema(() => 100_000, calls),
        `{ ${field} { name next { name next { name } } } }`,
      );
      assert.equal(calls.name, 0, 'no item was resolved');
      assert.equal(refusal?.extensions.code, 'BAD_USER_INPUT');
      assert.match(refusal?.message ?? '', /^The answer would hold more than 50 objects/);
      // Cut short, not failed: the gateway throws this answer away for the refusal.
      assert.equal(result.errors, undefined);
      assert.deepEqual({ ...result.data }, { [field]: [] });
    }
  });

  it('stops an answer that grows past the object limit one object at a time', async () => {
    const calls = { name: 0 };
    const nested = Array.from({ length: 12 }, () => 'next {').join(' ');
    const query = `{ items { name ${nested} name ${'}'.repeat(12)} } }`;
    const { result, refusal } = await run(
      toySchema(() => 10, calls),
      query,
    );
    assert.match(refusal?.message ?? '', /more than 50 objects/);
    assert.ok(calls.name <= 50, `${calls.name} items resolved`);
    // Nothing was thrown (graphql 16 can leave a sibling's rejection unhandled, which would end
    // the process): the nullable `next` fields past the limit are null.
    assert.equal(result.errors, undefined);
  });

  it('stops an answer past the byte limit, counting multi-byte characters as bytes', async () => {
    const { refusal } = await run(
      toySchema(() => 6_000, { name: 0 }),
      '{ text }',
    );
    assert.match(refusal?.message ?? '', /^The answer would hold more than 10000 bytes/);
    const small = await run(
      toySchema(() => 1_000, { name: 0 }),
      '{ text }',
    );
    assert.equal(small.refusal, undefined);
    assert.equal(small.result.data!.text, 'é'.repeat(1_000));
  });

  it('wraps a schema once, however often the gateway is built over it', async () => {
    const calls = { name: 0 };
    const schema = toySchema(() => 30, calls);
    countAnswers(schema, (context) => (context as { answer: AnswerBudget }).answer);
    // Counted twice, 30 items would pass 50.
    const { refusal } = await run(schema, '{ items { name } }');
    assert.equal(refusal, undefined);
  });

  it('leaves no rejection unhandled when a field throws where its siblings answered promises', async () => {
    const schema = buildSchema(`type Query { items: [Item!]! } type Item { name: String! }`);
    const fields = (type: string) =>
      (
        schema.getType(type) as unknown as { getFields(): Record<string, { resolve?: unknown }> }
      ).getFields();
    fields('Query').items!.resolve = () => [0, 1, 2];
    fields('Item').name!.resolve = (i: number) => {
      if (i === 1) throw new Error('refused at once');
      return new Promise((_, reject) => setTimeout(() => reject(new Error('refused later')), 20));
    };
    countAnswers(schema, (context) => (context as { answer: AnswerBudget }).answer);
    const unhandled: unknown[] = [];
    const listener = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', listener);
    try {
      const answer = new AnswerBudget({ maxNodes: 50, maxBytes: 10_000 });
      const result = await execute({
        schema,
        document: parse('{ items { name } }'),
        contextValue: { answer },
      });
      assert.equal(result.data, null);
      assert.ok(result.errors?.length);
      await new Promise((resolve) => setTimeout(resolve, 60));
      assert.deepEqual(unhandled, []);
    } finally {
      process.off('unhandledRejection', listener);
    }
  });
});
