import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BuildOptions } from 'esbuild';

/**
 * The packages the project's code imports to have compiled into the build's bundled code (see
 * code.ts), with what they import in turn: the markdown processor's pure-JavaScript modules
 * (remark-html and the sixty-odd small modules under it), so that a worker loads one file where it
 * resolved and loaded each of them, and so that mdast-util-to-hast's walk can be swapped; zod (the
 * forms' schemas, which the templates import: ninety-odd files with every locale; a quick rebuild's
 * render of one page took 110 ms with them loaded from node_modules, 45 ms without) and yaml
 * (sixty-odd). Not js-yaml, the front matter's quick reader: one file, as quick to load from node_modules.
 */
const INLINE = ['unified', 'vfile', 'remark-html', 'zod', 'yaml'];

/** mdast-util-to-hast's one `visit`, which unist-util-visit makes eight times slower than it need be (see unist-visit.ts); from the project, as the entries are. */
const ALIAS = { 'unist-util-visit': 'src/content/unist-visit.ts' };

/**
 * Every other package the generator depends on stays an import, loaded from node_modules when the
 * code runs (React, which the workers preload while esbuild runs and the templates share; satteri,
 * native; a package a template starts to use). Named in esbuild's options, not decided by a plugin:
 * esbuild asks a plugin on the main thread, which is busy reading the content as the build starts,
 * and the bundle, which the workers wait for, waited for it.
 */
function external(): string[] {
  // The generator's package.json: two folders up from src/pool/ and from .site/cli/ alike.
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as Record<string, Record<string, string> | undefined>;
  const names = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((name) => !INLINE.includes(name) && !(name in ALIAS));
  return names.flatMap((name) => [name, `${name}/*`]).sort();
}

export const codePackageOptions = (root: string): Pick<BuildOptions, 'external' | 'alias'> => ({
  external: external(),
  // mdast-util-to-hast is the only module of the bundle that imports unist-util-visit (code-packages.test.ts checks).
  alias: Object.fromEntries(Object.entries(ALIAS).map(([name, file]) => [name, path.join(root, file)])),
});
