// The CMS's browser bundle: Decap CMS and the site's widgets and previews, bundled by esbuild from
// node_modules (served from the site's own origin, its version pinned by the lockfile), kept in
// .site/cache/cms/ while every file it was made from is the same.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { BuildOptions } from 'esbuild';
import { cachedBundle } from '../bundle/bundle-cache.ts';
import { CACHE_DIR } from '../output/layout.ts';
import { PAGE_TEMPLATES, pageTemplatesFile, writePageTemplates } from '../bundle/page-templates.ts';
import { templateModules } from '../routes/kinds.ts';

/** The bundle's bytes, their hash, and their size gzipped at level 9 (for the build's summary). */
export interface CmsBundle { js: Uint8Array; hash: string; gzip: number }

const CLIENT = path.join('src', 'cms', 'client');

/** What the browser gets for the few node: modules the build's shared code imports (see nodeStubs). */
const STUBS: Record<string, string> = {
  // The native markdown parser's loader: the preview passes remark-parse, so it is never called.
  'node:module': 'export const createRequire = () => () => { throw new Error("not in the browser"); };',
  'node:worker_threads': 'export const isMainThread = true;',
  // A raster image's variant names hash its encoding: the preview names none (its <picture> shows the source's own variants 404).
  'node:crypto': 'export const createHash = () => ({ update() { return this; }, digest: () => "0".repeat(64) });',
  'node:path': [
    'const base = (p, ext) => { const b = p.slice(p.lastIndexOf("/") + 1); return ext && b.endsWith(ext) ? b.slice(0, -ext.length) : b; };',
    'const extname = (p) => { const b = base(p); const i = b.lastIndexOf("."); return i > 0 ? b.slice(i) : ""; };',
    'export default { basename: base, extname }; export { base as basename, extname };',
  ].join('\n'),
};

/** The build's markdown and image modules, shared with the preview, import node: modules the browser has not: stubbed (STUBS). */
const nodeStubs = {
  name: 'node-stubs',
  setup(b: import('esbuild').PluginBuild) {
    b.onResolve({ filter: /^node:(module|worker_threads|crypto|path)$/ }, (args) => ({ path: args.path, namespace: 'node-stub' }));
    b.onLoad({ filter: /.*/, namespace: 'node-stub' }, (args) => ({ contents: STUBS[args.path]!, loader: 'js' }));
  },
};

/** esbuild's options for the bundle, made from `generator` (the folder holding src/cms/client/). */
const buildOptions = (generator: string) => ({
  entryPoints: [path.join(generator, CLIENT, 'index.tsx')],
  absWorkingDir: generator,
  bundle: true, minify: true, format: 'esm', target: 'es2022', platform: 'browser', write: false, jsx: 'automatic', metafile: true,
  define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
  logLevel: 'silent', legalComments: 'none',
  plugins: [nodeStubs],
  // The previews draw with the registry's templates modules (bundle/page-templates.ts).
  alias: { [PAGE_TEMPLATES]: pageTemplatesFile(generator) },
} satisfies BuildOptions);

/**
 * The hash of this file's text, as the generator's src/ holds it: a change to how the bundle is made
 * makes it again. Read from the file rather than taken from the running function, whose text differs
 * between the compiled CLI, tsx and vitest, so that a bundle made by one is taken by the others (a
 * test's scratch copy of the project takes the one the project's cache holds). A generator whose
 * src/ holds the client but not this file is keyed by the running function's text.
 */
const recipeHash = async (generator: string) => createHash('sha256')
  .update(await readFile(path.join(generator, 'src', 'cms', 'bundle.ts')).catch(() => String(cmsBundle)))
  .digest('hex');

/** What a cached bundle is recorded as (bundle-cms.json); its bytes are in cms/cms-<hash>.js. */
interface Saved { hash: string; gzip: number }
const isSaved = (v: unknown): v is Saved => !!v && typeof v === 'object' && typeof (v as Saved).hash === 'string' && typeof (v as Saved).gzip === 'number';

/**
 * The bundle, from the cache or made (some ten seconds: Decap CMS is about six megabytes minified).
 * Reused while every file esbuild read for it is unchanged (bundle/bundle-cache.ts): the client's
 * files, and the templates, schemas and routes its previews draw with, and Decap's own.
 */
export async function cmsBundle(root: string, generator = root): Promise<CmsBundle> {
  const dir = path.join(root, CACHE_DIR, 'cms');
  const fileOf = (hash: string) => path.join(dir, `cms-${hash}.js`);
  const settings = `${JSON.stringify(buildOptions(generator), (k, v) => (k === 'plugins' ? STUBS : v))}\n${await recipeHash(generator)}`;
  let made: Uint8Array | undefined;
  await writePageTemplates(generator, templateModules());
  const saved = await cachedBundle(generator, path.join(root, CACHE_DIR), 'cms', settings, async () => {
    const { build } = await import('esbuild');
    const out = await build(buildOptions(generator));
    const js = out.outputFiles[0]!.contents;
    const hash = createHash('sha256').update(js).digest('hex').slice(0, 16);
    const gzipped = await promisify(gzip)(js, { level: 9 });
    await mkdir(dir, { recursive: true });
    await writeFile(fileOf(hash), js);
    for (const name of await readdir(dir)) if (name !== `cms-${hash}.js`) await rm(path.join(dir, name), { force: true });
    made = js;
    return { result: { hash, gzip: gzipped.byteLength }, metafiles: [out.metafile] };
  }, (result) => result, (v) => (isSaved(v) && existsSync(fileOf(v.hash)) ? v : undefined));
  return { js: made ?? await readFile(fileOf(saved.hash)), ...saved };
}
