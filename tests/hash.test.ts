import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashOf } from '../src/hash.ts';

/** The key as it was first defined: each part fed to SHA-256 in turn, each followed by a NUL. */
const streamed = (...parts: Array<string | Uint8Array>) => {
  const h = createHash('sha256');
  for (const part of parts) h.update(part).update('\0');
  return h.digest('hex');
};

describe('hashOf, the build\'s one key', () => {
  it('is the SHA-256 of each part followed by a NUL, for text, bytes and both, so that keys written by earlier builds still match', () => {
    const cases: Array<Array<string | Uint8Array>> = [
      [], [''], ['a'], ['ab', 'c'], ['content/blog/x.md', '[]', 'f'.repeat(64)],
      ['Café — “quoted” 🚀', 'ŝ'], [Buffer.from('bytes')], ['text', new Uint8Array([0, 1, 2, 255]), 'more'],
      [Buffer.alloc(200_000, 7), 'tail'],
    ];
    for (const parts of cases) expect(hashOf(...parts)).toBe(streamed(...parts));
  });

  it('tells apart parts split differently', () => {
    expect(hashOf('ab', 'c')).not.toBe(hashOf('a', 'bc'));
    expect(hashOf('a', '')).not.toBe(hashOf('a'));
  });
});
