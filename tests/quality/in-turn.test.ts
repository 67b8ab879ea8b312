import { describe, expect, it } from 'vitest';
import { inTurn } from '../../quality/in-turn.ts';

describe("npm test's output in the steps' order", () => {
  it("writes the first step at once and holds a later step's text until every step before it has ended", () => {
    let out = '';
    const [first, second, third] = inTurn(3, (text) => { out += text; });
    second!.write('b1 ');
    first!.write('a1 ');
    third!.write('c1 ');
    expect(out).toBe('a1 ');
    second!.write('b2 ');
    third!.end(); // the last step ends first: still held
    expect(out).toBe('a1 ');
    first!.write('a2 ');
    first!.end();
    expect(out).toBe('a1 a2 b1 b2 ');
    second!.write('b3 ');
    expect(out).toBe('a1 a2 b1 b2 b3 ');
    second!.end();
    expect(out).toBe('a1 a2 b1 b2 b3 c1 ');
  });

  it('loses nothing when every step ends before the first', () => {
    let out = '';
    const channels = inTurn(3, (text) => { out += text; });
    channels.forEach((c, i) => c.write(`${i} `));
    channels[2]!.end();
    channels[1]!.end();
    expect(out).toBe('0 ');
    channels[0]!.end();
    expect(out).toBe('0 1 2 ');
  });
});
