import path from 'node:path';
import type { BuildOptions, Metafile } from 'esbuild';

/**
 * What the build's bundled code (see code.ts) imports from node_modules when it runs: React (the
 * workers preload it while esbuild runs, see boot.ts, and the templates share that copy), satteri
 * (native), the YAML readers, gray-matter, zod, takumi and sharp. Every other package is compiled
 * in: the markdown processor's pure-JavaScript modules (remark-html and the sixty-odd small modules
 * under it), so that a worker loads one file where it resolved and loaded each of them, and so that
 * mdast-util-to-hast's walk can be swapped. Options rather than a plugin: esbuild asks a plugin on
 * the main thread, which is busy reading the content as the build starts, and the bundle waited.
 */
const EXTERNAL = ['react', 'react/*', 'react-dom', 'react-dom/*', 'satteri', 'yaml', 'js-yaml', 'gray-matter', 'zod', 'zod/*', '@takumi-rs/*', 'sharp'];

/** The packages the project's own code may import to have them compiled in (with what they import in turn). */
const INLINE = ['unified', 'vfile', 'remark-html'];

/** mdast-util-to-hast's one `visit`, which unist-util-visit makes eight times slower than it need be (see unist-visit.ts); from the project, as the entries are. */
const FAST_VISIT = 'src/content/unist-visit.ts';

export const codePackageOptions = (root: string): Pick<BuildOptions, 'external' | 'alias'> => ({
  external: EXTERNAL,
  // mdast-util-to-hast is the only module of the bundle that imports unist-util-visit (code-packages.test.ts checks).
  alias: { 'unist-util-visit': path.join(root, FAST_VISIT) },
});

const NODE_MODULES = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//;

/**
 * The packages the project's code imports that are neither external nor meant to be compiled in:
 * a new import belongs in one list or the other, rather than be compiled in unnoticed (the AWS SDK,
 * say, imported by a module the templates reach).
 */
export function unlistedPackages(metafile: Metafile): string[] {
  const found = new Set<string>();
  for (const [file, input] of Object.entries(metafile.inputs)) {
    if (NODE_MODULES.test(file)) continue;
    for (const imported of input.imports) {
      const name = NODE_MODULES.exec(imported.path)?.[1];
      if (name && !imported.external && !INLINE.includes(name)) found.add(`${name} (imported by ${file})`);
    }
  }
  return [...found].sort();
}
