// The islands in islands/ and their registry, islands/index.ts, must agree: a build with a file the
// registry does not name, or a registration without its file, stops and says which.
import { readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bundle } from '../../src/bundle/bundle.ts';
import { IslandRegistryError } from '../../src/bundle/island-registry.ts';
import { describeBuildError } from '../../src/pipeline/errors.ts';
import { scratchProject } from '../scratch-project.ts';
import { CACHE_DIR } from '../../src/output/layout.ts';

let dir: string;
beforeEach(async () => { dir = await scratchProject('site-islands-'); });
afterEach(() => rm(dir, { recursive: true, force: true }));

const bundled = () => bundle({ root: dir, cacheDir: path.join(dir, CACHE_DIR) });
const failure = async () => {
  const error = await bundled().then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(IslandRegistryError);
  return describeBuildError(error);
};

describe('the island registry', () => {
  it('agrees with the folder on the real site', async () => {
    const result = await bundled();
    const files = (await readdir(path.join(dir, 'islands'))).filter((f) => /\.tsx?$/.test(f) && f !== 'index.ts').map((f) => f.replace(/\.tsx?$/, ''));
    expect(files.length).toBeGreaterThan(5);
    expect(Object.keys(result.islands).sort()).toEqual(files.sort());
  });

  it('reads the registry through a linked islands/ folder (as the bench links the project\'s code)', async () => {
    await rm(path.join(dir, 'islands'), { recursive: true });
    await symlink(path.resolve('islands'), path.join(dir, 'islands'), 'dir');
    expect(Object.keys((await bundled()).islands).length).toBeGreaterThan(5);
  });

  it('stops the build, naming the file, when an island is not registered', async () => {
    await writeFile(path.join(dir, 'islands', 'newsletter.tsx'), 'export default function Newsletter() { return null; }\n');
    expect(await failure()).toEqual([
      'islands/newsletter is not registered in islands/index.ts: import it into `islands` (a React component) or name it in `scriptIslands` (a plain module)',
      'build stopped: the islands and their registry disagree',
    ]);
  });

  it('stops the build when the registry names a plain module that has no file, even with the bundle cached', async () => {
    await bundled();
    const registry = path.join(dir, 'islands', 'index.ts');
    await writeFile(registry, (await readFile(registry, 'utf8')).replace('export const scriptIslands = [', "export const scriptIslands = ['ticker', "));
    expect((await failure())[0]).toBe("islands/index.ts registers 'ticker', but islands/ has no ticker.tsx or ticker.ts");
  });
});
