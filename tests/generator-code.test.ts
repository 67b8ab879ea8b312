import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeTreeHash, generatorCode } from '../src/generator-code.ts';

// A rebuild reuses what the last build worked out from the content (a route's key) only while the
// generator's code is the same: any change to a code file must give another hash.
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'generator-code-'));
  await mkdir(path.join(dir, 'routes'));
  await writeFile(path.join(dir, 'routes', 'blog.ts'), 'export const a = 1;');
  await writeFile(path.join(dir, 'chunk-A.js'), 'export const b = 2;');
  await writeFile(path.join(dir, 'notes.md'), 'Not code.');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe("the generator's code hash", () => {
  it('changes with any code file, compiled or not, and with nothing else', async () => {
    const first = codeTreeHash(dir);
    expect(codeTreeHash(dir)).toBe(first);
    await writeFile(path.join(dir, 'notes.md'), 'Still not code.');
    expect(codeTreeHash(dir)).toBe(first);
    await writeFile(path.join(dir, 'routes', 'blog.ts'), 'export const a = 2;');
    const second = codeTreeHash(dir);
    expect(second).not.toBe(first);
    await writeFile(path.join(dir, 'chunk-A.js'), 'export const b = 3;');
    expect(codeTreeHash(dir)).not.toBe(second);
    await writeFile(path.join(dir, 'routes', 'list.tsx'), 'export const c = 1;');
    expect(codeTreeHash(dir)).not.toBe(second);
  });

  it('is, run from src/, the hash of src/', () => {
    expect(generatorCode()).toBe(codeTreeHash(path.resolve('src')));
  });
});
