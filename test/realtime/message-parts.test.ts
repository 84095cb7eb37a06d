import assert from 'node:assert/strict';
import { MessageAssembler, splitIntoParts } from '../../src/realtime/message-parts.js';

describe('realtime message parts', () => {
  it('splits between characters, within the byte limit, and joins back', () => {
    const text = `{"x":"${'a€😀'.repeat(500)}"}`;
    const parts = splitIntoParts(text, 'm1', 64);
    assert.ok(parts.length > 50);
    for (const part of parts) {
      assert.ok(Buffer.byteLength(part) <= 64, part);
      assert.ok(!part.includes('\ufffd'), part);
    }
    const assembler = new MessageAssembler();
    const whole = [...parts].reverse().map((part) => assembler.add(part));
    assert.equal(whole.at(-1), text);
    assert.ok(whole.slice(0, -1).every((result) => result === undefined));
    assert.equal(assembler.pending, 0);
  });

  it('drops a message whose parts stop coming after the maximum age', () => {
    let now = 0;
    const assembler = new MessageAssembler(30_000, () => now);
    const [first, second] = splitIntoParts('x'.repeat(100), 'old', 60);
    assert.equal(assembler.add(first!), undefined);
    assert.equal(assembler.pending, 1);
    now = 30_001;
    assert.equal(assembler.add(splitIntoParts('fresh', 'new', 60)[0]!), 'fresh');
    assert.equal(assembler.pending, 0);
    assert.equal(assembler.add(second!), undefined);
  });

  it('ignores what is not a part, and parts that repeat', () => {
    const assembler = new MessageAssembler();
    assert.equal(assembler.add('not a part'), undefined);
    assert.equal(assembler.add('m:2:2:x'), undefined);
    const [first, second] = splitIntoParts('abcdefghij'.repeat(10), 'm', 40);
    assert.equal(assembler.add(first!), undefined);
    assert.equal(assembler.add(first!), undefined);
    assert.equal(assembler.pending, 1);
    assert.equal(second!.startsWith('m:1:'), true);
  });
});
