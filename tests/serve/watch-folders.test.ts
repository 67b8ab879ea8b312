import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { watchFolders, type FolderWatcher } from '../../src/serve/watch-folders.ts';

let dir: string;
let watcher: FolderWatcher | undefined;

beforeEach(async () => { dir = await mkdtemp(path.join(os.tmpdir(), 'site-watch-')); });
afterEach(async () => {
  await watcher?.close();
  watcher = undefined;
  await rm(dir, { recursive: true, force: true });
});

/**
 * Watches `dir` and, on each reported change, reads the file (as a rebuild would) and hands the text
 * to `react`, which may save again at once. Resolves when a reported change reads `last`; a save that
 * is never reported leaves it waiting, and the deadline names what the watcher saw.
 */
function watchUntil(file: string, last: string, react: (text: string) => Promise<void> | void = () => {}) {
  const seen: string[] = [];
  return new Promise<string[]>((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`the save of ${JSON.stringify(last)} was never reported; reads after each report: ${JSON.stringify(seen)}`)), 15_000);
    watcher = watchFolders([dir], (changed) => {
      if (changed !== file) return;
      void readFile(file, 'utf8').then(async (text) => {
        seen.push(text);
        if (text === last) { clearTimeout(deadline); resolve(seen); return; }
        await react(text);
      });
    });
    watcher.ready.then(() => writeFile(file, 'save 0'), reject);
  });
}

describe('watchFolders', () => {
  it('reports a save made the instant the last one was reported', async () => {
    const file = path.join(dir, 'page.md');
    await writeFile(file, 'initial');
    // Each report is answered by the next save, as an author's format-on-save or a test does; all
    // the same length, so only the contents tell them apart (not size, nor a coarse mtime).
    const seen = await watchUntil(file, 'save 9', async (text) => {
      const n = Number(text.slice(5));
      if (n < 9) await writeFile(file, `save ${n + 1}`);
    });
    expect(seen.at(-1)).toBe('save 9');
  });

  it('reports the second of two saves made back to back', async () => {
    const file = path.join(dir, 'page.md');
    await writeFile(file, 'initial');
    const seen = await watchUntil(file, 'save B', async (text) => {
      if (text === 'save 0') { await writeFile(file, 'save A'); await writeFile(file, 'save B'); }
    });
    expect(seen.at(-1)).toBe('save B');
  });

  it('reports added and removed files', async () => {
    const reports: string[] = [];
    watcher = watchFolders([dir], (file) => reports.push(`${path.basename(file)} ${existsSync(file) ? 'there' : 'gone'}`));
    await watcher.ready;
    const file = path.join(dir, 'new.md');
    await writeFile(file, 'x');
    await expect.poll(() => reports, { timeout: 60_000 }).toContain('new.md there');
    await rm(file);
    await expect.poll(() => reports, { timeout: 60_000 }).toContain('new.md gone');
  });
});
