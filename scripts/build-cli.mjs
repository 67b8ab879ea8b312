// Compiles the CLI (src/cli.ts and what it imports) to plain JavaScript in .site/cli/, so that
// `site` starts without compiling TypeScript. `npm ci` runs it (the `prepare` script); bin/site runs
// it again whenever a source it was built from has changed since. Dependencies stay in
// node_modules; the templates are not part of it (each `site build` bundles them afresh).
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { mkdir, readdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
/**
 * .site/cli/: src/output/layout.ts names every folder the tools write (cliDirOf), but this script
 * runs before anything is compiled, so it keeps its own copy of the name (tests/cli-launcher.test.ts
 * checks that the two agree).
 */
export const CLI_DIR = path.join(PACKAGE_DIR, '.site', 'cli');
/** Where versions before .site/ compiled it: removed once the CLI is compiled into CLI_DIR. */
const OLD_CLI_DIR = path.join(PACKAGE_DIR, 'build', 'cli');
/** How messages name CLI_DIR. */
export const CLI_DIR_SHOWN = path.relative(PACKAGE_DIR, CLI_DIR);
export const STAMP = path.join(CLI_DIR, 'stamp.json');
/**
 * Pure-JavaScript dependencies of the build, compiled into the CLI: loading them from node_modules
 * file by file (yaml alone is some sixty CommonJS files) cost more at each start than running them.
 * The rest stays in node_modules: esbuild and satteri (native binaries; remark-parse, the fallback, is
 * loaded by require() only where satteri cannot load), React (the templates' bundle imports it),
 * and what only serve and deploy load (the AWS SDK, sirv).
 */
const INLINE = /^(?:commander|zod|yaml|gray-matter|unified|vfile|remark-html)(?:\/|$)/;

/** Chunks of earlier builds are removed once this old: a `site` started before may still be loading them. */
const ORPHAN_AGE_MS = 10 * 60_000;

/**
 * Why the CLI must be compiled again before it runs, or undefined when it is current: it is
 * missing, or a source it was built from has another modification time than when it was compiled
 * (a stat of each, about a millisecond).
 */
export function staleReason() {
  let stamp;
  try { stamp = JSON.parse(readFileSync(STAMP, 'utf8')); } catch { return `${CLI_DIR_SHOWN} is missing`; }
  for (const [file, compiled] of Object.entries(stamp.inputs)) {
    let mtime;
    try { mtime = statSync(path.join(PACKAGE_DIR, file)).mtimeMs; } catch { return `${file} is gone`; }
    if (mtime !== compiled) return `${file} changed`;
  }
  return undefined;
}

/** Builds .site/cli/cli.js and its chunks; returns the stamp that staleReason() checks. */
export async function buildCli() {
  const { build } = await import('esbuild');
  const startedAt = Date.now();
  const result = await build({
    absWorkingDir: PACKAGE_DIR,
    entryPoints: { cli: 'src/cli.ts' },
    outdir: CLI_DIR,
    bundle: true, splitting: true, format: 'esm', platform: 'node', target: 'node20',
    jsx: 'automatic', loader: { '.css': 'empty' },
    plugins: [{
      name: 'external-packages',
      setup(b) {
        // What an inlined package imports is inlined too (only inlined packages are read from node_modules).
        const inline = (args) => INLINE.test(args.path) || args.path.startsWith('node:') || args.importer.includes(`${path.sep}node_modules${path.sep}`);
        b.onResolve({ filter: /^[^./]/ }, (args) => (inline(args) ? undefined : { path: args.path, external: true }));
      },
    }],
    sourcemap: 'linked', sourcesContent: false, chunkNames: 'chunk-[hash]',
    write: false, metafile: true, logLevel: 'silent',
    // The inlined CommonJS packages require() Node's built-in modules, which ES modules must be given.
    banner: { js: "// Built from src/ by scripts/build-cli.mjs: edit the TypeScript, not this.\nimport { createRequire as __siteRequire } from 'node:module';\nconst require = __siteRequire(import.meta.url);" },
  });
  await mkdir(CLI_DIR, { recursive: true });
  // Each file replaced whole (write, then rename), so that a `site` starting meanwhile never reads half a file.
  const written = new Set(['stamp.json']);
  for (const file of result.outputFiles) {
    const tmp = `${file.path}.${process.pid}.tmp`;
    await writeFile(tmp, file.contents);
    await rename(tmp, file.path);
    written.add(path.basename(file.path));
  }
  // Each source's modification time as compiled; bin/site compiles again when any differs. A file
  // saved while esbuild ran may not be in the output: it gets no time, so the next start compiles it.
  const inputs = {};
  for (const file of Object.keys(result.metafile.inputs).filter((f) => !f.startsWith('node_modules/')).sort()) {
    const { mtimeMs } = await stat(path.join(PACKAGE_DIR, file));
    inputs[file] = mtimeMs < startedAt ? mtimeMs : -1;
  }
  // The hash of what was compiled: a build keeps what it worked out from the content only while the code that did is the same (src/generator-code.ts).
  const code = createHash('sha256');
  for (const file of [...result.outputFiles].sort((a, b) => (a.path < b.path ? -1 : 1))) code.update(path.basename(file.path)).update('\0').update(file.contents).update('\0');
  const stamp = { inputs, code: code.digest('hex') };
  if (process.env.BUILD_CLI_META) await writeFile(process.env.BUILD_CLI_META, JSON.stringify(result.metafile));
  const tmp = `${STAMP}.${process.pid}.tmp`;
  await writeFile(tmp, JSON.stringify(stamp, null, 1) + '\n');
  await rename(tmp, STAMP);
  for (const name of await readdir(CLI_DIR)) {
    if (written.has(name)) continue;
    const file = path.join(CLI_DIR, name);
    const age = Date.now() - (await stat(file).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
    if (age > ORPHAN_AGE_MS) await rm(file, { force: true });
  }
  // The older version's copy, and build/ with it once nothing else is in it (src/output/old-folders.ts moves the rest).
  await rm(OLD_CLI_DIR, { recursive: true, force: true });
  await rmdir(path.dirname(OLD_CLI_DIR)).catch(() => {});
  return stamp;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const stamp = await buildCli();
    console.log(`built ${path.relative(process.cwd(), CLI_DIR) || '.'}/ from ${Object.keys(stamp.inputs).length} source files`);
  } catch (error) {
    console.error(`build-cli: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
