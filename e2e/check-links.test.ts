import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { checkLinksCommand } from '../src/links/command.ts';

describe('site check-links over the real build', () => {
  it('finds nothing broken', async () => {
    const lines: string[] = [];
    const code = await checkLinksCommand({ dir: inject('distDir'), external: false, json: false, out: (l) => lines.push(l) });
    expect(lines.join('\n')).toMatch(/ 0 broken/);
    expect(code).toBe(0);
  });
});
