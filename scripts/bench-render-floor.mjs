// `node scripts/bench-render-floor.mjs DIR [ROUNDS]`: a page's making, per page, against React's
// floor, on one thread. DIR is a project a build has run in (`npm run bench -- N --keep`).
//
// It runs one clean build of DIR in this process (cards and bundled code kept, as `npm run bench --
// --again DIR --code-cached`) and keeps a copy of every batch of pages the build hands its workers.
// Then, on this thread alone, it makes each of those pages again with the renderer that build
// bundled (.site/cache/code-*/render.mjs), several rounds, and times:
//   - the floor: React's `renderToString` of the page's element tree, its data already in memory;
//   - React's whole part: that render as the build calls it, with the page's <head> beside it;
//   - the page: what a worker does for it (rendered, made into its document, hashed, its markup
//     read for the budgets, gzipped at level 1 for its figure);
//   - the page's gzip figure alone.
// The first round warms the code up and is not counted; the figures are the median round's, in ms a page.
import { createRequire } from 'node:module';
import { readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { cleanBuiltKeepingCards } from './bench-clean.mjs';
import { PACKAGE_DIR, staleReason } from './build-cli.mjs';

const [dirArg, roundsArg] = process.argv.slice(2);
if (!dirArg) { console.error('usage: node scripts/bench-render-floor.mjs DIR [ROUNDS]'); process.exit(2); }
const dir = path.resolve(dirArg);
const rounds = Number(roundsArg ?? 5);
const stale = staleReason();
if (stale) { console.error(`the CLI in .site/cli/ is stale (${stale}): run \`npm run prepare\` first`); process.exit(2); }

// React's two renders, timed where the bundled renderer calls them. Wrapped before anything imports
// react-dom/server: an ES module importing a CommonJS one takes its exports as they are then.
// React as the build's workers run it.
process.env.NODE_ENV = 'production';
const requireHere = createRequire(path.join(dir, 'package.json'));
const server = requireHere('react-dom/server');
const { cloneElement } = requireHere('react');
const { renderToString, renderToStaticMarkup } = server;
/** While set, each render's element and time (ms). */
let seen;
const timed = (render, kind) => (element, options) => {
  const start = performance.now();
  const html = render(element, options);
  seen?.push({ kind, element, ms: performance.now() - start });
  return html;
};
server.renderToString = timed(renderToString, 'body');
server.renderToStaticMarkup = timed(renderToStaticMarkup, 'head');

// Each batch of pages the build hands a worker, copied before it goes (its buffers are handed over).
const tasks = [];
const post = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (message, transfer) {
  if (message?.task?.kind === 'pages') tasks.push(structuredClone(message.task.task));
  return post.call(this, message, transfer);
};

await cleanBuiltKeepingCards(dir, true);
const out = await mkdtemp(path.join(os.tmpdir(), 'site-render-floor-'));
const { main } = await import(pathToFileURL(path.join(PACKAGE_DIR, '.site', 'cli', 'cli.js')).href);
const lines = [];
const code = await main(['node', 'site', 'build', '--root', dir, '--out', path.join(out, 'dist'), '--no-search'], { out: (s) => lines.push(s), err: (s) => lines.push(s) });
Worker.prototype.postMessage = post;
await rm(out, { recursive: true, force: true });
if (code !== 0) { console.error(`the build failed (exit ${code}):\n${lines.join('\n')}`); process.exit(1); }

const jobs = tasks.flatMap((task) => task.jobs.map((job) => ({ task, job })));
if (jobs.length === 0) { console.error('the build handed no pages to a worker: use a project of more than a few hundred pages'); process.exit(2); }
const cache = path.join(dir, '.site', 'cache');
const codeDir = readdirSync(cache).filter((n) => n.startsWith('code-')).map((n) => path.join(cache, n)).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
const { makePages } = await import(pathToFileURL(path.join(codeDir, 'render.mjs')).href);

/**
 * The page's element tree with collectors of its own (src/render/page.tsx: the site's context, then
 * the islands' and the images' collectors, which remember what one render marked), so that it renders again as it did once.
 */
function again(element, url) {
  const islands = element.props.children;
  const images = islands.props.children;
  const Islands = islands.props.value.constructor;
  const Images = images.props.value.constructor;
  return cloneElement(element, {}, cloneElement(islands, { value: new Islands() }, cloneElement(images, { value: new Images(url) })));
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
const figures = { floor: [], react: [], page: [], gzip: [] };
for (let r = 0; r <= rounds; r++) {
  let floor = 0, react = 0, page = 0, gzip = 0;
  for (const { task, job } of jobs) {
    // The page as a worker makes it, its document handed back rather than written.
    seen = [];
    const start = performance.now();
    const [made] = makePages({ ...task, jobs: [job], handBack: true });
    page += performance.now() - start;
    if (!made.document) throw new Error(`${job.route.url}: no document made (${JSON.stringify(made).slice(0, 200)})`);
    const renders = seen;
    seen = undefined;
    react += sum(renders.map((x) => x.ms));
    // The floor: the same element tree rendered again, nothing else done.
    const body = again(renders.find((x) => x.kind === 'body').element, job.route.url);
    const t = performance.now();
    renderToString(body);
    floor += performance.now() - t;
    const g = performance.now();
    gzipSync(made.document, { level: 1 });
    gzip += performance.now() - g;
  }
  if (r > 0) for (const [k, v] of Object.entries({ floor, react, page, gzip })) figures[k].push(v / jobs.length);
}

const row = (label, xs) => `  ${label.padEnd(48)} ${median(xs).toFixed(3)} (${Math.min(...xs).toFixed(3)}–${Math.max(...xs).toFixed(3)})`;
console.log(`${jobs.length} pages of ${dir} (those its build handed a worker), median of ${rounds} rounds (ms a page, min–max):`);
console.log(row("the floor: React's renderToString of the page", figures.floor));
console.log(row("React's whole part: the page's body and <head>", figures.react));
console.log(row('the page as a worker makes it', figures.page));
console.log(row('  of which its gzip figure (level 1)', figures.gzip));
console.log(`  the page over its floor: ${(median(figures.page) / median(figures.floor)).toFixed(2)}×; React's part ${(median(figures.react) / median(figures.floor)).toFixed(2)}× the floor`);
