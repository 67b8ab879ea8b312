// The CMS's browser bundle: Decap CMS and the site's widgets and previews, bundled by esbuild from
// node_modules (served from the site's own origin, its version pinned by the lockfile), kept in
// .site/cache/cms/ while its inputs are the same.
import { createHash } from 'node:crypto';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CACHE_DIR } from '../output/layout.ts';

export interface CmsBundle { js: Uint8Array; hash: string }

const CLIENT = path.join('src', 'cms', 'client');

/** What the bundle is made from: the client's files, the CMS's config and the content's schemas (its save checks), and the lockfile (Decap's version). */
async function inputsHash(root: string, generator: string): Promise<string> {
  const h = createHash('sha256');
  for (const dir of [CLIENT, path.join('src', 'cms'), path.join('src', 'content')].map((d) => path.join(generator, d))) {
    for (const e of (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter((f) => f.isFile()).sort((a, b) => a.name.localeCompare(b.name))) h.update(e.name).update(await readFile(path.join(dir, e.name)));
  }
  h.update(await readFile(path.join(generator, 'package-lock.json')).catch(() => Buffer.from('')));
  return h.digest('hex').slice(0, 16);
}

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

/** The bundle, from the cache or made (some ten seconds: Decap CMS is about six megabytes minified). */
export async function cmsBundle(root: string, generator = root): Promise<CmsBundle> {
  const hash = await inputsHash(root, generator);
  const dir = path.join(root, CACHE_DIR, 'cms');
  const file = path.join(dir, `cms-${hash}.js`);
  const cached = await readFile(file).catch(() => undefined);
  if (cached) return { js: cached, hash };
  const { build } = await import('esbuild');
  const out = await build({
    entryPoints: [path.join(generator, CLIENT, 'index.tsx')],
    absWorkingDir: generator,
    bundle: true, minify: true, format: 'esm', target: 'es2022', platform: 'browser', write: false, jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"', global: 'globalThis' },
    logLevel: 'silent', legalComments: 'none',
    plugins: [nodeStubs],
  });
  const js = out.outputFiles[0]!.contents;
  await mkdir(dir, { recursive: true });
  await writeFile(file, js);
  return { js, hash };
}
