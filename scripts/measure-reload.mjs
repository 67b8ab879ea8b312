// Save → reload in `site serve`: starts serve on a scratch copy of the project, edits an article 20
// times, and times each save (the file written) to the live-reload event reaching a browser's
// event stream. Prints each time and the median.
//   node scripts/measure-reload.mjs [--edits 20] [--article content/blog/what-is-data.md]
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const arg = (name, fallback) => { const i = process.argv.indexOf(name); return i === -1 ? fallback : process.argv[i + 1]; };
const edits = Number(arg('--edits', '20'));
const article = arg('--article', 'content/blog/what-is-data.md');

const dir = await mkdtemp(path.join(os.tmpdir(), 'site-reload-'));
let child;
try {
  for (const part of ['content', 'templates', 'islands', 'src', 'lambda', 'forms']) await cp(path.join(repo, part), path.join(dir, part), { recursive: true });
  await symlink(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  await writeFile(path.join(dir, 'package.json'), '{"type":"module"}');

  child = spawn(process.execPath, [path.join(repo, 'bin/site'), '--root', dir, 'serve', '--port', '0', '--host', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  // serve's own warnings (the AWS SDK's notice about Node 20, say) only when asked for.
  child.stderr.on('data', (d) => { if (process.env.VERBOSE) process.stderr.write(d); });
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => { log += d; if (process.env.VERBOSE) process.stderr.write(d); const m = /serving (http:\/\/\S+)/.exec(log); if (m) resolve(m[1]); });
    child.on('exit', (code) => reject(new Error(`site serve exited with ${code}:\n${log}`)));
  });

  // One event stream, as an open page holds; each 'reload' event resolves the waiting edit.
  const res = await fetch(`${url}/__site/events`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let waiting;
  let buffer = '';
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
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

  const file = path.join(dir, article);
  const original = await readFile(file, 'utf8');
  const times = [];
  for (let i = 1; i <= edits; i++) {
    await sleep(300);
    const reloaded = new Promise((resolve) => { waiting = resolve; });
    const start = performance.now();
    await writeFile(file, `${original}\nEdit number ${i} of the reload measurement.\n`);
    const end = await reloaded;
    times.push(end - start);
    const page = await (await fetch(`${url}/${article.replace(/^content\//, '').replace(/\.md$/, '')}`)).text();
    if (!page.includes(`Edit number ${i} of`)) throw new Error(`edit ${i} is not in the page after its reload`);
    console.log(`edit ${String(i).padStart(2)}: ${(end - start).toFixed(1)} ms`);
  }
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  console.log(`save → reload, median of ${edits} edits of ${article}: ${median.toFixed(1)} ms (min ${sorted[0].toFixed(1)}, max ${sorted.at(-1).toFixed(1)})`);
  await reader.cancel();
} finally {
  // Gone before its folder goes: serve may still be writing a search index into it.
  const exited = child && child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : undefined;
  child?.kill('SIGTERM');
  await exited;
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
}
