// Save → reload in `site serve`: starts serve on a scratch copy of the project (or, with --project,
// on a project kept by `npm run bench -- N --keep`, in place), edits an article again and again, and
// times each save (the file written) to the live-reload event reaching a browser's event stream.
// The first edit is made a second after serve answers its first request, whether or not its first
// build is done (a save then is answered from that build's plan). Prints each time, the first save's
// and the median of the rest, the median and the 90th percentile of all, and how long serve took to
// answer its first request and to finish its first build. After each reload the article's page (and with --title, an article list showing it) is
// fetched and must show the edit.
//   node scripts/measure-reload.mjs [--edits 20] [--article content/blog/what-is-data.md] [--project DIR] [--title]
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const arg = (name, fallback) => { const i = process.argv.indexOf(name); return i === -1 ? fallback : process.argv[i + 1]; };
const edits = Number(arg('--edits', '20'));
const article = arg('--article', 'content/blog/what-is-data.md');
const project = arg('--project', undefined);
const title = process.argv.includes('--title');
const slug = path.basename(article, '.md');

const dir = project ? path.resolve(project) : await mkdtemp(path.join(os.tmpdir(), 'site-reload-'));
const file = path.join(dir, article);
let original;
let child;
try {
  if (!project) {
    for (const part of ['content', 'templates', 'islands', 'src', 'lambda', 'forms']) await cp(path.join(repo, part), path.join(dir, part), { recursive: true });
    await symlink(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    await writeFile(path.join(dir, 'package.json'), '{"type":"module"}');
  }
  original = await readFile(file, 'utf8');

  const started = performance.now();
  child = spawn(process.execPath, [path.join(repo, 'bin/site'), '--root', dir, 'serve', '--port', '0', '--host', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  // serve's own warnings (the AWS SDK's notice about Node 20, say) only when asked for.
  child.stderr.on('data', (d) => { if (process.env.VERBOSE) process.stderr.write(d); });
  child.stdout.on('data', (d) => { log += d; if (process.env.VERBOSE) process.stderr.write(d); });
  const exited = new Promise((resolve, reject) => child.on('exit', (code) => reject(new Error(`site serve exited with ${code}:\n${log}`))));
  exited.catch(() => {});
  const waitFor = async (pattern) => { for (;;) { const m = pattern.exec(log); if (m) return m; await Promise.race([sleep(5), exited]); } };
  // The first request, sent as soon as serve says it listens.
  const url = (await waitFor(/(?:listening on|serving) (http:\/\/[^\s,]+)/))[1];
  const first = await fetch(`${url}/`);
  await first.arrayBuffer();
  const firstMs = performance.now() - started;
  // The first build's end, noted whenever it comes: the edits begin a second after the first answer, built or not, as an author's would.
  let readyMs;
  void waitFor(/^serving http/m).then(() => { readyMs = performance.now() - started; }, () => {});
  await sleep(Math.max(0, 1000 - 300 - (performance.now() - started - firstMs)));

  // One event stream, as an open page holds; each 'reload' event resolves the waiting edit.
  const res = await fetch(`${url}/__site/events`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let waiting;
  let buffer = '';
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ done: true }));
      if (done) return;
      buffer += decoder.decode(value);
      let at;
      while ((at = buffer.indexOf('\n\n')) !== -1) {
        const event = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        if (event.includes('event: reload') && waiting) { waiting(performance.now()); waiting = undefined; }
      }
    }
  })();

  // With --title, a list page that shows the article (found in what serve built) must show each new title too.
  let list;
  if (title) {
    // What serve built: serveOutDirOf in src/output/layout.ts (this script runs without compiling TypeScript).
    const out = path.join(dir, '.site', 'serve', 'site', 'blog');
    const candidates = ['../blog.html', ...(await readdir(out, { recursive: true })).filter((f) => /^(page|category)\//.test(f) && f.endsWith('.html'))];
    for (const f of candidates) {
      if ((await readFile(path.join(out, f), 'utf8')).includes(`href="/blog/${slug}"`)) { list = `/blog/${f.replace(/^\.\.\/blog/, '').replace(/\.html$/, '')}`.replace(/\/$/, ''); break; }
    }
    if (!list) throw new Error(`no article list shows /blog/${slug}`);
  }

  // As a browser does, a GET sent on a kept-alive connection that serve closed meanwhile (its idle timer
  // fired late, its thread busy with the start-up build) is sent once more.
  const get = async (at) => {
    try { return await (await fetch(at)).text(); } catch (error) {
      if (error?.cause?.code !== 'ECONNRESET') throw error;
      return (await fetch(at)).text();
    }
  };
  const times = [];
  let firstSaveAt;
  for (let i = 1; i <= edits; i++) {
    await sleep(300);
    const reloaded = new Promise((resolve) => { waiting = resolve; });
    const start = performance.now();
    firstSaveAt ??= start;
    const mark = title ? `Edit ${i} of the reload measurement` : `Edit number ${i} of the reload measurement.`;
    await writeFile(file, title ? original.replace(/^title: .*$/m, `title: "${mark}"`) : `${original}\n${mark}\n`);
    const timeout = sleep(30_000).then(() => { throw new Error(`edit ${i}: no reload in 30 s:\n${log.slice(-2000)}`); });
    let end = await Promise.race([reloaded, timeout]);
    // A reload sent as the save was made but not for it (the start-up build's end): the save's own is the next.
    if (!(await get(`${url}/blog/${slug}`)).includes(mark)) {
      const next = new Promise((resolve) => { waiting = resolve; });
      // Shown meanwhile (its reload came before this waited for it): the time it was seen.
      end = (await get(`${url}/blog/${slug}`)).includes(mark) ? performance.now() : await Promise.race([next, timeout]);
      console.log(`edit ${String(i).padStart(2)}: a reload came before the page showed it (the start-up build's end); timed to the next`);
    }
    times.push(end - start);
    const page = await get(`${url}/blog/${slug}`);
    if (!page.includes(mark)) throw new Error(`edit ${i} is not in the page after its reload`);
    if (list && !(await get(`${url}${list}`)).includes(mark)) throw new Error(`edit ${i} is not in ${list} after its reload`);
    const listMs = performance.now() - start;
    console.log(`edit ${String(i).padStart(2)}: ${(end - start).toFixed(1)} ms${list ? ` (${list} showing it at ${listMs.toFixed(1)} ms)` : ''}`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  const median = (values) => { const v = [...values].sort((a, b) => a - b); return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2; };
  await waitFor(/^serving http/m);
  readyMs ??= performance.now() - started;
  console.log(`first request answered ${firstMs.toFixed(0)} ms after start (first build done at ${readyMs.toFixed(0)} ms); the first edit began ${(firstSaveAt - started).toFixed(0)} ms after start`);
  console.log(`the first save: ${times[0].toFixed(1)} ms; the next ${times.length - 1}: median ${median(times.slice(1)).toFixed(1)} ms`);
  console.log(`save → reload, ${edits} ${title ? 'title' : 'body'} edits of ${article}: median ${median(times).toFixed(1)} ms, p90 ${at(0.9).toFixed(1)} ms (min ${sorted[0].toFixed(1)}, max ${sorted.at(-1).toFixed(1)})`);
  const lines = log.split('\n').filter((l) => /^built \d+ pages? in/.test(l));
  if (lines.length) console.log(`serve's last line: ${lines.at(-1)}`);
  const builds = log.split('\n').filter((l) => l.startsWith('building the site: '));
  if (builds.length) console.log(`saves that built the site: ${builds.length} (${[...new Set(builds.map((l) => l.slice(19)))].join('; ')})`);
  // serve's peak resident memory (Linux), its worker threads included.
  const peak = /VmHWM:\s+(\d+) kB/.exec(await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => ''))?.[1];
  if (peak) console.log(`serve's peak memory: ${Math.round(Number(peak) / 1024)} MiB`);
  await reader.cancel().catch(() => {});
} finally {
  // Gone before its folder goes: serve may still be writing a search index into it.
  const exited = child && child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined;
  child?.kill('SIGTERM');
  await exited;
  if (project) { if (original !== undefined) await writeFile(file, original); }
  else await rm(dir, { recursive: true, force: true, maxRetries: 5 });
}
