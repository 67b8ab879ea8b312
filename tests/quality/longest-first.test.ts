/**
 * The order the test files start in on a clean clone (quality/longest-first.ts): vitest has no
 * record of the last run there, so the durations kept in the repository stand in, longest first,
 * and a file they do not know starts before them.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVitest, type Vitest } from 'vitest/node';
import LongestFirst from '../../quality/longest-first.ts';

let dir: string;
let vitest: Vitest;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'site-longest-first-'));
  const test = (name: string, padding = 0) => writeFile(path.join(dir, `${name}.test.ts`), `import { it } from 'vitest';\n${'// padding\n'.repeat(padding)}it('${name}', () => {});\n`);
  // vitest's own order without a record starts the largest file first: here the quick one.
  await Promise.all([test('quick-but-large', 500), test('slow-but-small'), test('middling', 100), test('new-file')]);
  await writeFile(path.join(dir, 'durations.json'), JSON.stringify({ ':quick-but-large.test.ts': 0.2, ':slow-but-small.test.ts': 90, ':middling.test.ts': 12 }));
  vitest = await createVitest('test', { root: dir, config: false, watch: false });
});
afterAll(async () => {
  await vitest?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the test files’ order on a clean clone', () => {
  it('starts a file the durations do not know first, then the longest, whatever their size', async () => {
    const specs = await vitest.globTestSpecifications();
    expect(specs).toHaveLength(4);
    const order = (await new LongestFirst(vitest, path.join(dir, 'durations.json')).sort(specs)).map((s) => path.basename(s.moduleId));
    expect(order).toEqual(['new-file.test.ts', 'slow-but-small.test.ts', 'middling.test.ts', 'quick-but-large.test.ts']);
  });
});
