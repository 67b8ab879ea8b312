import path from 'node:path';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { cachedBundle } from '../bundle/bundle-cache.ts';
import { CACHE_DIR } from '../output/layout.ts';
import { markdownParser } from '../content/markdown-parser.ts';
import { codePackageOptions } from './code-packages.ts';
import { PAGE_TEMPLATES, pageTemplatesFile, writePageTemplates } from '../bundle/page-templates.ts';
import { templateModules } from '../routes/kinds.ts';
import { tempFileFor } from '../temp-file.ts';

/** The build's own code as it is on disk now: the markdown parser, the templates' renderer, the worker that runs both. */
export interface BuildCode {
  /**
   * Hashes of the bundled code: a cached result made by other code is never reused. The markdown
   * hash names the parser too: satteri and its fallback differ on a few documents (see the parser's test).
   */
  markdownHash: string;
  renderHash: string;
  /** Of the share cards' drawing code and template (src/cards/draw.tsx, templates/share-card/). */
  cardsHash: string;
  markdownUrl: string;
  cardsUrl: string;
  renderUrl: string;
  workerFile: string;
}

const sha = (data: string | Uint8Array) => createHash('sha256').update(data).digest('hex').slice(0, 20);
/** Folders of earlier code kept a while, since a `site` still running (serve, a parallel build) may be loading them. */
const KEEP_MS = 10 * 60_000;

/**
 * Bundles the four entries with esbuild into .site/cache/code-<hash>/, named by content, so a
 * long-running `site serve` renders with the templates as they are on disk now and an unchanged
 * build reuses the modules it already imported. Packages stay external and shared, but for the
 * markdown processor's (see code-packages.ts).
 */
export async function bundleBuildCode(root: string): Promise<BuildCode> {
  // Reused while every file it was bundled from is unchanged (see bundle/bundle-cache.ts) and its folder is still there.
  // The templates, gathered from the registry's modules: written before the cache is asked, since the bundle reads it.
  await writePageTemplates(root, templateModules());
  // Kept by the name of its folder in the cache, so that a copy of the project elsewhere finds it in its own cache.
  const bundled = await cachedBundle(root, path.join(root, CACHE_DIR), 'code', `${String(bundleCodeAfresh)}\n${JSON.stringify(codeBuildOptions(root))}`, () => bundleCodeAfresh(root), savedCode,
    (saved) => {
      if (!isSavedCode(saved)) return undefined;
      const code = codeIn(path.join(root, CACHE_DIR, saved.folder), saved);
      return existsSync(code.workerFile) ? code : undefined;
    });
  // Chosen here, on the main thread, so that a build without the native parser says so once, though its workers parse.
  const parser = markdownParser().name;
  const { markdownBundleHash, ...code } = bundled;
  return { ...code, markdownHash: sha(`${markdownBundleHash}\0${parser}`) };
}

/** The bundled code before the markdown parser is chosen: its markdown module's hash alone. */
type BundledCode = Omit<BuildCode, 'markdownHash'> & { markdownBundleHash: string };

/** What the cache keeps of the bundled code: its hashes and its folder's name (code-<hash>). */
type SavedCode = Pick<BundledCode, 'markdownBundleHash' | 'renderHash' | 'cardsHash'> & { folder: string };

const savedCode = ({ markdownBundleHash, renderHash, cardsHash, workerFile }: BundledCode): SavedCode => ({ markdownBundleHash, renderHash, cardsHash, folder: path.basename(path.dirname(workerFile)) });

const isSavedCode = (v: unknown): v is SavedCode => {
  const c = v as Record<string, unknown> | null;
  return !!c && ['markdownBundleHash', 'renderHash', 'cardsHash', 'folder'].every((k) => typeof c[k] === 'string') && /^code-\w+$/.test(c.folder as string);
};

/** The bundled code in `dir`, by its hashes. */
const codeIn = (dir: string, { markdownBundleHash, renderHash, cardsHash }: Pick<BundledCode, 'markdownBundleHash' | 'renderHash' | 'cardsHash'>): BundledCode => ({
  markdownBundleHash, renderHash, cardsHash,
  markdownUrl: pathToFileURL(path.join(dir, 'markdown.mjs')).href,
  renderUrl: pathToFileURL(path.join(dir, 'render.mjs')).href,
  cardsUrl: pathToFileURL(path.join(dir, 'cards.mjs')).href,
  workerFile: path.join(dir, 'worker.mjs'),
});

/** The packages' options (code-packages.ts), and `site:page-templates` read from where writePageTemplates puts it. */
const withPageTemplates = (root: string, options: ReturnType<typeof codePackageOptions>) => ({ ...options, alias: { ...options.alias, [PAGE_TEMPLATES]: pageTemplatesFile(root) } });

/**
 * esbuild's options for the build's code: its four entries, and what it takes from node_modules (see
 * code-packages.ts). No source maps: Node reads none unless started with --enable-source-maps, and
 * inline they were half of each file's bytes, some 100 ms of esbuild's bundling (on a large first
 * build, the workers wait for it) and 12 ms of each load of the code. A stack trace names the bundled
 * file's line, beside the `// templates/…` comment esbuild writes before each module's code.
 */
export const codeBuildOptions = (root: string) => ({
  absWorkingDir: root,
  entryPoints: { markdown: 'src/content/markdown-file.ts', render: 'src/render/server-entry.tsx', cards: 'src/cards/draw.tsx', worker: 'src/pool/worker.ts' },
  outdir: path.join(root, CACHE_DIR, 'code'),
  bundle: true, write: false, platform: 'node', format: 'esm', target: 'node20', outExtension: { '.js': '.mjs' },
  ...withPageTemplates(root, codePackageOptions(root)), jsx: 'automatic',
  // The CommonJS packages compiled in (code-packages.ts) require() Node's built-in modules, which ES modules must be given.
  banner: { js: "import { createRequire as __siteRequire } from 'node:module';\nconst require = __siteRequire(import.meta.url);" }, logLevel: 'silent', loader: { '.css': 'empty' }, metafile: true,
} satisfies BuildOptions);

async function bundleCodeAfresh(root: string): Promise<{ result: BundledCode; metafiles: Metafile[] }> {
  const result = await build(codeBuildOptions(root));
  const byName = new Map(result.outputFiles.map((f) => [path.basename(f.path, '.mjs'), f.contents]));
  const all = sha(Buffer.concat(['markdown', 'render', 'cards', 'worker'].map((n) => byName.get(n)!)));
  const dir = path.join(root, CACHE_DIR, `code-${all}`);
  const exists = await stat(path.join(dir, 'worker.mjs')).then(() => true, () => false);
  if (!exists) {
    const tmp = tempFileFor(dir);
    await mkdir(tmp, { recursive: true });
    for (const [name, contents] of byName) await writeFile(path.join(tmp, `${name}.mjs`), contents);
    await rename(tmp, dir).catch(() => rm(tmp, { recursive: true, force: true }));
    await pruneOldCode(path.join(root, CACHE_DIR), dir);
  }
  return {
    result: codeIn(dir, { markdownBundleHash: sha(byName.get('markdown')!), renderHash: sha(byName.get('render')!), cardsHash: sha(byName.get('cards')!) }),
    metafiles: [result.metafile],
  };
}

async function pruneOldCode(cacheDir: string, keep: string): Promise<void> {
  for (const name of await readdir(cacheDir).catch(() => [] as string[])) {
    const dir = path.join(cacheDir, name);
    if (!name.startsWith('code-') || dir === keep) continue;
    const age = Date.now() - (await stat(dir).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
    if (age > KEEP_MS) await rm(dir, { recursive: true, force: true });
  }
}
