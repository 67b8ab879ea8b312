// `npm run bench -- N [--from DIR] [--keep] [--cards-cached]`: one clean `site build` of the site with
// N extra articles, in a temporary copy of the project, measured from outside: pages, wall time, pages
// per second, and peak memory of every process of the build. See the README.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { appendFile, cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { convertArticles, writeArticles } from './bench-articles.mjs';
import { cleanBuiltKeepingCards } from './bench-clean.mjs';
import { buildCli, PACKAGE_DIR, staleReason } from './build-cli.mjs';
import { processTree } from '../quality/process-tree.mjs';

const USAGE = [
  'usage: npm run bench -- N [--from DIR] [--keep] [--cards-cached]',
  '       npm run bench -- --again DIR [--code-cached]',
  '       npm run bench -- --warm DIR',
  '  N               extra articles to write (ignored with --from)',
  '  --from          convert the markdown files of DIR instead (front matter as the benchmark kit’s article generator writes it)',
  '  --keep          leave the temporary project for a look',
  '  --cards-cached  build once first, untimed, then remove everything it made but the share cards (.site/cache/cards/):',
  '                  the timed build is clean but draws no card, as on any build after the first',
  '  --again DIR     time one more such build in DIR, a copy kept by --cards-cached --keep (for the benchmark kit’s pair.sh)',
  '  --code-cached   with --again: keep the bundled code too (.site/cache/code-*/, bundle-*.json), as on any build after',
  '                  the first whose code is unchanged: the build reads every article afresh, and bundles nothing',
  '  --warm DIR      append a sentence to one article of DIR (a kept copy) and time the rebuild that follows (warm: nothing removed)',
].join('\n');

function options(argv) {
  const opts = { count: undefined, from: undefined, keep: false, cardsCached: false, codeCached: false, again: undefined, warm: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--from') opts.from = argv[++i];
    else if (a === '--keep') opts.keep = true;
    else if (a === '--cards-cached') opts.cardsCached = true;
    else if (a === '--code-cached') opts.codeCached = true;
    else if (a === '--again') opts.again = argv[++i];
    else if (a === '--warm') opts.warm = argv[++i];
    else if (/^\d+$/.test(a)) opts.count = Number(a);
    else throw new Error(`unknown argument '${a}'`);
  }
  for (const flag of ['again', 'warm']) {
    if (opts[flag] === undefined) continue;
    if (!existsSync(path.join(opts[flag], 'content', 'blog'))) throw new Error(`--${flag} ${opts[flag]}: not a project kept by the bench`);
    return opts;
  }
  if (opts.from === undefined && opts.count === undefined) throw new Error('say how many articles');
  if (opts.from !== undefined && !existsSync(opts.from)) throw new Error(`--from ${opts.from}: no such folder`);
  return opts;
}

function safe(fn, fallback) { try { return fn(); } catch { return fallback; } }
/** A process's peak resident memory so far (VmHWM, bytes); its threads, workers included, share it. */
const peakOf = (pid) => Number(/VmHWM:\s+(\d+) kB/.exec(safe(() => readFileSync(`/proc/${pid}/status`, 'utf8'), ''))?.[1] ?? 0) * 1024;

// No search index: Eleventy builds none, so page generation is compared like for like (the index's
// own cost is measured apart: see the README's Search section).
const BUILD_FLAGS = ['--no-search'];

/**
 * Runs the build and samples every 250 ms the peak memory of each of its processes; the figure is the
 * sum of those peaks (an upper bound of what they held at once). Linux only: elsewhere it is undefined.
 * A peak (VmHWM) only grows, so a sample sees all a process reached before it; what comes in a
 * process's last 250 ms is missed. Sampled every 20 ms, walking the process tree cost this script
 * 0.8 s of CPU in a 9 s build of 1,000 articles (median of 5 pairs, 30 November 2026), all of it
 * counted as the build's by `pair.sh`; the peaks came out the same within the runs' spread
 * (405–524 MiB either way).
 */
const SAMPLE_MS = 250;

function run(args, cwd) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const peaks = new Map();
    const sample = () => { for (const pid of processTree(child.pid)) peaks.set(pid, Math.max(peaks.get(pid) ?? 0, peakOf(pid))); };
    const timer = existsSync('/proc/self/status') ? setInterval(sample, SAMPLE_MS) : undefined;
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('error', reject);
    child.on('exit', (code) => {
      const wall = (performance.now() - start) / 1000;
      clearInterval(timer);
      const peak = timer ? [...peaks.values()].reduce((a, b) => a + b, 0) : undefined;
      resolve({ code, wall, peak, stdout, stderr });
    });
  });
}

async function main() {
  let opts;
  try { opts = options(process.argv.slice(2)); } catch (error) { console.error(`bench: ${error.message}\n${USAGE}`); return 2; }
  // Compiled beforehand, so that the figure is the build's alone.
  if (staleReason()) await buildCli();

  if (opts.again) return again(path.resolve(opts.again), opts.codeCached);
  if (opts.warm) return warm(path.resolve(opts.warm));
  const root = await mkdtemp(path.join(os.tmpdir(), 'site-bench-'));
  try {
    // The project, with its code linked and its content copied, so the articles can be added; the
    // build's outputs are left behind, so the build is a clean one.
    for (const part of readdirSync(PACKAGE_DIR)) {
      // Not dist and the dot folders (.git, and .site/, where the tools write: a linked one would be written through).
      if (!['content', 'dist'].includes(part) && !part.startsWith('.')) await symlink(path.join(PACKAGE_DIR, part), path.join(root, part));
    }
    await cp(path.join(PACKAGE_DIR, 'content'), path.join(root, 'content'), { recursive: true });
    const blog = path.join(root, 'content', 'blog');
    const added = opts.from ? await convertArticles(path.resolve(opts.from), blog) : await writeArticles(blog, opts.count);

    const args = [path.join(PACKAGE_DIR, 'bin', 'site'), 'build', '--root', root, '--out', path.join(root, 'dist'), ...BUILD_FLAGS];
    if (opts.cardsCached) {
      const first = await run(args, root);
      if (first.code !== 0) {
        console.error(`bench: the untimed first build failed (exit ${first.code})\n${first.stderr || first.stdout}`);
        return 1;
      }
      await cleanBuiltKeepingCards(root);
    }
    const result = await run(args, root);
    if (result.code !== 0) {
      console.error(`bench: site build failed (exit ${result.code})\n${result.stderr || result.stdout}`);
      return 1;
    }
    report(result, `${added} ${opts.from ? `articles from ${opts.from}` : 'generated articles'}`);
    if (opts.keep) console.log(`  kept ${root}`);
    return 0;
  } finally {
    if (!opts.keep) await rm(root, { recursive: true, force: true });
  }
}

function report(result, what) {
  const pages = Number(/built (\d+) pages/.exec(result.stdout)?.[1]);
  const stages = /time: (.*)/.exec(result.stdout)?.[1];
  const mib = (b) => `${(b / 1048576).toFixed(0)} MiB`;
  // As the build counted them: a build meant to find every card cached draws them all after an upgrade of the card code, and says so here.
  const cards = /share cards: \d+: (\d+) drawn[^,]*, (\d+) reused/.exec(result.stdout);
  const cardWords = !cards ? '' : cards[1] === '0' ? ', share cards cached (none drawn)' : `, ${cards[1]} share cards drawn (${cards[2]} cached)`;
  console.log(`bench: ${what} + the site's own → ${pages} pages${cardWords}`);
  console.log(`  wall ${result.wall.toFixed(2)} s, ${(pages / result.wall).toFixed(0)} pages/s, peak memory ${result.peak === undefined ? 'n/a (no /proc)' : `${mib(result.peak)} (all processes)`}`);
  if (stages) console.log(`  stages: ${stages}`);
  console.log(`  load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.availableParallelism()} cores`);
}

/** One more clean build, cards cached (and the code, with `keepCode`), in a copy the bench kept: what `pair.sh` times against Eleventy. */
async function again(root, keepCode) {
  await cleanBuiltKeepingCards(root, keepCode);
  const result = await run([path.join(PACKAGE_DIR, 'bin', 'site'), 'build', '--root', root, '--out', path.join(root, 'dist'), ...BUILD_FLAGS], root);
  if (result.code !== 0) {
    console.error(`bench: site build failed (exit ${result.code})\n${result.stderr || result.stdout}`);
    return 1;
  }
  report(result, `the articles of ${root}`);
  return 0;
}

/** The articles a warm rebuild may edit: the generated ones (`…-00042.md`), none of the site's own. */
const GENERATED = /-\d{5}\.md$/;

/**
 * A body edit, then a rebuild in a copy the bench kept: one sentence appended to one article (only its
 * own page shows its body), the build timed as `--again` times a clean one, nothing removed before it.
 */
async function warm(root) {
  const blog = path.join(root, 'content', 'blog');
  const names = readdirSync(blog).filter((n) => n.endsWith('.md')).sort();
  const name = names.find((n) => GENERATED.test(n)) ?? names.at(-1);
  await appendFile(path.join(blog, name), `\nOne more sentence, written at ${new Date().toISOString()}.\n`);
  const result = await run([path.join(PACKAGE_DIR, 'bin', 'site'), 'build', '--root', root, '--out', path.join(root, 'dist'), ...BUILD_FLAGS], root);
  if (result.code !== 0) {
    console.error(`bench: site build failed (exit ${result.code})\n${result.stderr || result.stdout}`);
    return 1;
  }
  report(result, `the articles of ${root}, ${name} edited`);
  return 0;
}

process.exitCode = await main();
