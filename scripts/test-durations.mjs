// `npm run test:durations`: keeps in quality/test-durations.json how long each test file took in
// the last run here (vitest's own record of it, under node_modules/.vite/vitest/), so that a clean
// clone starts the longest files first too (quality/longest-first.ts). Run it after a whole run
// (`npm test`): a file run alone, or only some of its tests, records less than it takes. Files not
// run since keep their figure, files gone are dropped; the figures are rounded to a tenth of a second.
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'quality/test-durations.json');
const cacheDir = path.join(root, 'node_modules/.vite/vitest');
const kept = JSON.parse(await readFile(out, 'utf8').catch(() => '{}'));
let taken = 0;
for (const dir of await readdir(cacheDir).catch(() => [])) {
  const text = await readFile(path.join(cacheDir, dir, 'results.json'), 'utf8').catch(() => undefined);
  if (!text) continue;
  for (const [key, result] of JSON.parse(text).results) {
    if (!result.duration) continue;
    kept[key] = Math.round(result.duration / 100) / 10;
    taken += 1;
  }
}
const sorted = Object.fromEntries(Object.entries(kept).filter(([key]) => existsSync(path.join(root, key.slice(key.indexOf(':') + 1)))).sort(([a], [b]) => (a < b ? -1 : 1)));
await writeFile(out, `${JSON.stringify(sorted, null, 1)}\n`);
console.log(`test-durations: ${taken} files' durations from the last runs, ${Object.keys(sorted).length} kept in ${path.relative(root, out)}`);
