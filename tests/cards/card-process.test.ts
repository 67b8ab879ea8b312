/**
 * The process that draws a build's share cards (src/cards/card-process.ts): the real cards, drawn by
 * the build's own bundled code in a Node process of its own at the lowest priority; what it does when
 * a card cannot be drawn or the process dies; and a whole build through it, with and without
 * takumi's native binding.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/pipeline/build.ts';
import { CardProcess } from '../../src/cards/card-process.ts';
import { startServer } from '../../src/serve/server.ts';
import { bundleBuildCode, type BuildCode } from '../../src/pool/code.ts';
import { editFile, scratchProject } from '../scratch-project.ts';
import { differing, GOLDEN_DIR, MAX_DIFFERING, realCards } from './golden-cards.ts';
import { CACHE_DIR } from '../../src/output/layout.ts';
import { BuildWorkers } from '../../src/pool/build-workers.ts';

let dir: string;
let code: BuildCode;
const opened: CardProcess[] = [];
const cardProcess = () => { const p = new CardProcess(); opened.push(p); return p; };

/** Whether a process is still there (signal 0 asks without sending anything). */
const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };
async function gone(pid: number): Promise<boolean> {
  // Waited for up to a minute, a hang guard: a process told to end on a busy machine may take seconds.
  for (let i = 0; i < 1_200 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  return !alive(pid);
}
/** The card processes this test's process has started and not yet seen end (their code is on their command line), from Linux's /proc. */
async function cardProcesses(): Promise<number[]> {
  const found: number[] = [];
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    // The parent's id is the second field after the name, which is in brackets and may hold spaces.
    if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== process.pid) continue;
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    if (state !== 'Z' && (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).includes('setPriority')) found.push(Number(pid));
  }
  return found;
}
/** Each thread of a process by its name, with its nice value (Linux's /proc). */
async function threadNices(pid: number): Promise<Array<{ name: string; nice: number }>> {
  const tids = await readdir(`/proc/${pid}/task`);
  return Promise.all(tids.map(async (tid) => {
    const stat = await readFile(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // The fields after the name, which is in brackets and may hold spaces: nice is the 19th field of the whole line.
    const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { name: (await readFile(`/proc/${pid}/task/${tid}/comm`, 'utf8')).trim(), nice: Number(after[16]) };
  }));
}

beforeAll(async () => {
  dir = await scratchProject('site-card-process-');
  code = await bundleBuildCode(dir);
});
afterEach(() => { for (const p of opened.splice(0)) p.close(); });
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the card process', () => {
  it('draws the real cards with the build’s bundled code, as the golden references show them, at the lowest priority, and ends when closed', async () => {
    const cards = cardProcess().load(code.cardsUrl);
    const wanted = (await realCards()).filter((c) => ['home.png', 'blog-what-is-data.png', 'site.png'].includes(c.name));
    expect(wanted).toHaveLength(3);
    const pngs = await Promise.all(wanted.map(({ job }) => cards.draw(job)));
    for (const [i, { name }] of wanted.entries()) {
      const meta = await sharp(pngs[i]!).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height }, name).toEqual({ format: 'png', width: 1200, height: 630 });
      expect(await differing(pngs[i]!, await readFile(path.join(GOLDEN_DIR, name))), name).toBeLessThanOrEqual(MAX_DIFFERING);
    }
    if (process.platform === 'linux') {
      const threads = await threadNices(cards.pid!);
      // The threads that draw (libuv's) and the one that runs the code, and V8's own besides.
      expect(threads.filter((t) => t.name === 'libuv-worker').length).toBeGreaterThan(0);
      expect(threads.filter((t) => t.nice !== 19), JSON.stringify(threads)).toEqual([]);
    }
    const pid = cards.pid!;
    cards.close();
    expect(await gone(pid)).toBe(true);
    await expect(cards.draw(wanted[0]!.job)).rejects.toThrow(/share-card process was stopped/);
  });

  it('fails a card it cannot draw with the reason, and goes on drawing the rest', async () => {
    const cards = cardProcess().load(code.cardsUrl);
    const { job } = (await realCards())[0]!;
    const missingArt = { ...job, key: 'missing-art', art: { file: path.join(dir, 'content/images/no-such-art.svg'), hash: 'x', format: 'svg', width: 1600, height: 900 } };
    await expect(cards.draw(missingArt)).rejects.toThrow(/ENOENT.*no-such-art\.svg/);
    expect((await sharp(await cards.draw(job)).metadata()).width).toBe(1200);
  });

  it('fails the cards awaited, and every card asked for after, when the process dies', async () => {
    const cards = cardProcess().load(code.cardsUrl);
    const { job } = (await realCards())[0]!;
    const awaited = cards.draw(job);
    process.kill(cards.pid!, 'SIGKILL');
    await expect(awaited).rejects.toThrow(/share-card process stopped \(SIGKILL\)/);
    await expect(cards.draw(job)).rejects.toThrow(/share-card process stopped/);
  });

  it('is sent no card before it knows its drawing code', async () => {
    const { job } = (await realCards())[0]!;
    await expect(cardProcess().draw(job)).rejects.toThrow(/before its drawing code/);
  });
});

describe('a build left waiting on a card process that gets no CPU', () => {
  // A card process that never runs (stopped by SIGSTOP) stands for one at nice 19 on a machine
  // whose cores other work keeps busy: the build, its pages and index done, must not wait on it.
  async function drawnBeside(threshold: number) {
    const starved = cardProcess().load(code.cardsUrl);
    process.kill(starved.pid!, 'SIGSTOP');
    const workers = new BuildWorkers(code, threshold, undefined, () => starved);
    try {
      const { job } = (await realCards()).find((c) => c.name === 'home.png')!;
      const pngs: Uint8Array[] = [];
      const drawing = workers.cards([job], async (_job, png) => { pngs.push(png); });
      await workers.hurry();
      await drawing;
      // Node's diagnostic report lists the worker threads this thread has running.
      const threads = (process.report.getReport() as { workers: unknown[] }).workers.length;
      return { png: pngs[0]!, pool: workers.startedOnce, threads };
    } finally {
      process.kill(starved.pid!, 'SIGCONT');
      await workers.close();
    }
  }

  it('draws the card itself, on its own thread where the build starts no workers, and says it started none', async () => {
    const { png, pool, threads } = await drawnBeside(Infinity);
    expect(await differing(png, await readFile(path.join(GOLDEN_DIR, 'home.png')))).toBeLessThanOrEqual(MAX_DIFFERING);
    expect({ pool, threads }).toEqual({ pool: false, threads: 0 });
  });

  it('draws it on a worker where the build may start one for the cards left, and says it did', async () => {
    // Below 10 the card goes to the card process (one card under the threshold), where a card left
    // counts as twenty pages' work, over it.
    const { png, pool, threads } = await drawnBeside(10);
    expect((await sharp(png).metadata()).width).toBe(1200);
    expect({ pool, threads }).toEqual({ pool: true, threads: 1 });
  });
});

describe('a build whose cards the card process draws', () => {
  // --full: the whole site each time, cards included (with nothing changed, a build without a search index would be a quick one).
  const site = (env: NodeJS.ProcessEnv) => promisify(execFile)(process.execPath, [path.resolve('bin/site'), '--root', dir, 'build', '--no-search', '--full', '--out', path.join(dir, 'dist')], { env: { ...process.env, ...env }, timeout: 120_000 });
  const drawnLine = (stdout: string) => /share cards: (\d+): (\d+) drawn/.exec(stdout);

  it('draws every card of a first build, with takumi’s WebAssembly build where the native binding cannot load, saying so once', async () => {
    await rm(path.join(dir, CACHE_DIR), { recursive: true, force: true });
    // napi-rs's loader takes this path as the binding to load: one that is not there is a platform without one.
    const { stdout, stderr } = await site({ TAKUMI_CORE_TARGET: path.join(dir, 'no-such-binding.node') });
    const drawn = drawnLine(stdout);
    expect(drawn, stdout).not.toBeNull();
    expect(drawn![2]).toBe(drawn![1]);
    expect(stderr.match(/WebAssembly build/g), stderr).toHaveLength(1);
    const home = (await readdir(path.join(dir, 'dist/og'))).find((f) => f.startsWith('home-'))!;
    expect(await differing(await readFile(path.join(dir, 'dist/og', home)), await readFile(path.join(GOLDEN_DIR, 'home.png')))).toBeLessThanOrEqual(MAX_DIFFERING);
  }, 180_000);

  it('leaves no process of its own running once it has built', async () => {
    await rm(path.join(dir, CACHE_DIR), { recursive: true, force: true });
    const result = await buildSite({ root: dir, outDir: path.join(dir, 'in-process'), budgets: false, now: new Date('2026-06-01T12:00:00Z') });
    expect(result.summary.cards).toMatchObject({ drawn: expect.any(Number), reused: 0 });
    expect(result.summary.cards!.drawn).toBeGreaterThan(20);
    expect(await cardProcesses()).toEqual([]);
  }, 180_000);

  it('draws them with the native binding, silently, and a build with them cached draws none', async () => {
    await rm(path.join(dir, CACHE_DIR), { recursive: true, force: true });
    const first = await site({});
    expect(first.stderr).not.toMatch(/WebAssembly/);
    expect(Number(drawnLine(first.stdout)![2])).toBeGreaterThan(20);
    const again = await site({});
    expect(again.stdout).toMatch(/share cards: \d+: 0 drawn/);
  }, 180_000);
});

describe('site serve’s card process', () => {
  const ogImage = async (url: string) => /<meta property="og:image" content="https:\/\/[^/]+(\/og\/[^"]+)"/.exec(await (await fetch(url)).text())![1]!;

  it('is one process, kept from build to build, that draws each edited title’s card, and ends with serve', async () => {
    await rm(path.join(dir, CACHE_DIR), { recursive: true, force: true });
    const server = await startServer({ root: dir, port: 0, host: '127.0.0.1', watch: false, log: () => {}, now: new Date('2026-06-01T12:00:00Z') });
    let first: number | undefined;
    try {
      [first] = await cardProcesses();
      expect(first).toBeGreaterThan(0);
      const cards = new Set<string>();
      for (const title of ['What Is Data, Really?', 'What Is Data, Honestly?']) {
        await editFile(dir, 'content/blog/what-is-data.md', (s) => s.replace(/^title: .*$/m, `title: "${title}"`));
        await server.rebuild();
        const card = await ogImage(`${server.url}/blog/what-is-data`);
        const res = await fetch(server.url + card);
        expect(res.status, card).toBe(200);
        expect(res.headers.get('content-type')).toBe('image/png');
        cards.add(card);
        expect(await cardProcesses()).toEqual([first]);
      }
      expect(cards.size).toBe(2);
    } finally {
      await server.close();
    }
    expect(await gone(first!)).toBe(true);
    expect(await cardProcesses()).toEqual([]);
  }, 180_000);
});
