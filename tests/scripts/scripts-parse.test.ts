// The scripts under scripts/ run under plain Node, outside the type-check: each must at least parse,
// so that a slip in one (a quote in a usage string, say) shows here rather than when someone runs it.
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const scripts = readdirSync('scripts').filter((f) => f.endsWith('.mjs'));

describe('scripts/', () => {
  it('holds scripts to check', () => expect(scripts.length).toBeGreaterThan(3));
  it.each(scripts)('%s parses', (script) => {
    expect(() => execFileSync(process.execPath, ['--check', `scripts/${script}`], { stdio: 'pipe' })).not.toThrow();
  });
});
