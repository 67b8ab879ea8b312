import path from 'node:path';
import { existsSync, realpathSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { checkIslandRegistry } from './island-registry.ts';
import { build, type Metafile, type Plugin } from 'esbuild';
import { cachedBundle } from './bundle-cache.ts';

export interface BundleResult {
  /** Public URL of the island runtime (absent when no page uses an island). */
  runtime?: string;
  css: string;
  /** Island name → public URL of its entry chunk. */
  islands: Record<string, string>;
  /** Public URL → the URLs it imports statically (its whole closure, itself included). */
  closure: Record<string, string[]>;
  /** Public URL → bytes, for every JS and CSS file written. */
  files: Record<string, Uint8Array>;
}

const ISLAND_PREFIX = 'site-island:';
/** The site's stylesheet, which every page links to. */
const SITE_CSS = 'templates/styles/site.css';

/** Each island becomes an entry that exports the mount function the runtime calls. */
function islandEntries(root: string): Plugin {
  return {
    name: 'island-entries',
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${ISLAND_PREFIX}`) }, (args) => ({ path: args.path.slice(ISLAND_PREFIX.length), namespace: 'island' }));
      b.onLoad({ filter: /.*/, namespace: 'island' }, (args) => ({
        resolveDir: root,
        loader: 'tsx',
        // A .tsx island is a React component to hydrate; a .ts island is a plain module whose
        // default export mounts itself, so pages that only need a few lines of script load no React.
        contents: existsSync(path.join(root, 'islands', `${args.path}.tsx`))
          ? [
            `import Island from ${JSON.stringify(`./islands/${args.path}.tsx`)};`,
            `import { hydrate } from "./src/bundle/client/hydrate.tsx";`,
            `export default (el, props, name) => hydrate(el, Island, props, name);`,
          ].join('\n')
          : `export { default } from ${JSON.stringify(`./islands/${args.path}.ts`)};`,
      }));
    },
  };
}

/** esbuild names outputs absolute (outputFiles) or relative to the project (metafile). */
function publicUrl(root: string, outDir: string, file: string): string {
  return '/' + path.relative(outDir, path.resolve(root, file)).split(path.sep).join('/');
}

function closures(meta: Metafile, root: string, outDir: string): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  const walk = (file: string, seen: Set<string>) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const imp of meta.outputs[file]?.imports ?? []) if (imp.kind === 'import-statement' && !imp.external) walk(imp.path, seen);
  };
  for (const file of Object.keys(meta.outputs)) {
    if (!file.endsWith('.js')) continue;
    const seen = new Set<string>();
    walk(file, seen);
    result[publicUrl(root, outDir, file)] = [...seen].map((f) => publicUrl(root, outDir, f));
  }
  return result;
}

/** Every island in islands/ (a .tsx or .ts file there, by its name; index.ts is the registry). */
async function islandNames(root: string): Promise<string[]> {
  const names = await readdir(path.join(root, 'islands')).catch(() => [] as string[]);
  return names.filter((n) => /\.tsx?$/.test(n) && !/^index\.tsx?$/.test(n)).map((n) => n.replace(/\.tsx?$/, '')).sort();
}

/**
 * Where esbuild is told the output goes: the project's dist/, whatever folder the build writes to.
 * Nothing is written there (the files come back in memory, and are addressed from the site's root,
 * /assets/…), so the bundles are the same for every output folder, and one cached result serves a
 * build to dist/ and to any other (a test's, `site serve`'s preview).
 */
const bundleOutDir = (root: string) => path.join(root, 'dist');

/**
 * esbuild, twice: every island in islands/ (code-split, so React and shared code load once) with the
 * stylesheet, then the runtime with their chunk addresses baked in. It needs no page, so the build
 * starts it while content loads, and each page's document can be written as soon as it is rendered.
 * A page loads only its own islands' closures: an island no page uses is a file nobody fetches.
 * With `cacheDir`, the result is kept there and reused while nothing it was made from changes.
 */
export async function bundle(opts: { root: string; cacheDir?: string }): Promise<BundleResult> {
  const names = await islandNames(opts.root);
  const made = { root: opts.root, outDir: bundleOutDir(opts.root) };
  // Besides the files esbuild reads: which islands there are and which are React components, and this module's own code.
  const settings = JSON.stringify([names.map((n) => [n, existsSync(path.join(opts.root, 'islands', `${n}.tsx`))]), BUNDLE_CODE]);
  if (!opts.cacheDir) return (await bundleAfresh(made, names)).result;
  return cachedBundle(opts.root, opts.cacheDir, 'assets', settings, () => bundleAfresh(made, names), encodeResult, decodeResult);
}

/** This module's code, which makes the result from esbuild's output: a change to it is a change of the bundle. */
const BUNDLE_CODE = [bundleAfresh, bundleOutDir, islandEntries, publicUrl, closures, checkIslandRegistry, String(ISLAND_PREFIX), SITE_CSS].map(String).join('\n');

type SavedResult = Omit<BundleResult, 'files'> & { files: Record<string, string> };

const encodeResult = (r: BundleResult): SavedResult => ({ ...r, files: Object.fromEntries(Object.entries(r.files).map(([url, bytes]) => [url, Buffer.from(bytes).toString('base64')])) });

function decodeResult(saved: unknown): BundleResult | undefined {
  const r = saved as SavedResult;
  if (!r || typeof r.css !== 'string' || !r.css || !r.islands || !r.closure || !r.files || typeof r.files !== 'object') return undefined;
  return { ...r, files: Object.fromEntries(Object.entries(r.files).map(([url, text]) => [url, new Uint8Array(Buffer.from(text, 'base64'))])) };
}

/** esbuild's two runs, as `bundle` describes them, with their metafiles (what they read). */
async function bundleAfresh(opts: { root: string; outDir: string }, names: string[]): Promise<{ result: BundleResult; metafiles: Metafile[] }> {
  const common = {
    bundle: true, write: false, minify: true, metafile: true, format: 'esm', target: 'es2020',
    outdir: path.join(opts.outDir, 'assets'), entryNames: '[name]-[hash]', chunkNames: 'chunks/[name]-[hash]', assetNames: '[name]-[hash]',
    absWorkingDir: opts.root, logLevel: 'silent', legalComments: 'none', jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
  } as const;

  const registry = await checkIslandRegistry(opts.root, names);
  const main = await build({
    ...common,
    splitting: true,
    entryPoints: [
      { in: SITE_CSS, out: 'site' },
      ...names.map((name) => ({ in: `${ISLAND_PREFIX}${name}`, out: name })),
    ],
    plugins: [islandEntries(opts.root)],
  });
  const files: Record<string, Uint8Array> = {};
  for (const f of main.outputFiles) files[publicUrl(opts.root, opts.outDir, f.path)] = f.contents;
  const islands: Record<string, string> = {};
  let css = '';
  // esbuild names an entry by its real path: through a symlinked templates/, not the path it was given.
  const stylesheet = realpathSync(path.join(opts.root, SITE_CSS));
  for (const [file, out] of Object.entries(main.metafile.outputs)) {
    if (out.entryPoint?.startsWith('island:')) islands[out.entryPoint.slice('island:'.length)] = publicUrl(opts.root, opts.outDir, file);
    else if (out.entryPoint && file.endsWith('.css') && realpathSync(path.resolve(opts.root, out.entryPoint)) === stylesheet) css = publicUrl(opts.root, opts.outDir, file);
  }
  // Every page links to it: never an empty href.
  if (!css) throw new Error(`bundle: esbuild made no stylesheet of ${SITE_CSS}`);

  let runtime: string | undefined;
  const metafiles: Metafile[] = [main.metafile, registry];
  if (names.length) {
    const rt = await build({
      ...common,
      entryPoints: [{ in: 'src/bundle/client/runtime.ts', out: 'runtime' }],
      define: { ...common.define, __ISLAND_CHUNKS__: JSON.stringify(islands) },
    });
    for (const f of rt.outputFiles) files[publicUrl(opts.root, opts.outDir, f.path)] = f.contents;
    runtime = publicUrl(opts.root, opts.outDir, rt.outputFiles[0]!.path);
    metafiles.push(rt.metafile);
  }

  const closure = closures(main.metafile, opts.root, opts.outDir);
  if (runtime) closure[runtime] = [runtime];
  return { result: { runtime, css, islands, closure, files }, metafiles };
}
