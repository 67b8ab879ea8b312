import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { checkLinksCommand } from '../src/links/command.ts';

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.html')).map((e) => path.join(e.parentPath, e.name));
}

describe('the real build', () => {
  it('site check-links finds nothing broken, the site\'s URL conventions included', async () => {
    const lines: string[] = [];
    const code = await checkLinksCommand({ dir: inject('distDir'), external: false, json: false, out: (l) => lines.push(l) });
    // Ends at '0 broken': checked with the build's routing table, not as a plain static folder.
    expect(lines).toEqual([expect.stringMatching(/; 0 broken$/)]);
    expect(code).toBe(0);
  });

  it('has no placeholder text on any page', async () => {
    const files = await htmlFiles(inject('distDir'));
    expect(files.length).toBeGreaterThan(30);
    for (const file of files) {
      const text = (await readFile(file, 'utf8')).replace(/<script[\s\S]*?<\/script>/g, '').replace(/<[^>]+>/g, ' ');
      expect(text, file).not.toMatch(/lorem ipsum|\bTODO\b|\bTBD\b|\bFIXME\b|\[placeholder\]|coming soon\.\.\./i);
    }
  });
});
