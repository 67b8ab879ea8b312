import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PRELOAD } from '../../src/pool/boot.ts';

/**
 * A worker preloads these packages, resolved as require() resolves them, while the build's code is
 * bundled; the code then imports them. Each must be the very module the import gets, or the worker
 * loads the package twice (zod's CommonJS build beside its ES one did: some 40 ms a worker).
 */
describe("the workers' preload", () => {
  it('loads each package from the file the bundled code imports', () => {
    const required = createRequire(pathToFileURL(`${process.cwd()}/`).href);
    for (const name of PRELOAD) expect(pathToFileURL(required.resolve(name)).href, name).toBe(import.meta.resolve(name));
  });
});
