import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/pipeline/build.ts';
import { ContentErrors, formatContentError } from '../../src/content/errors.ts';
import { filesOf, scratchProject } from '../scratch-project.ts';
import { WorkerPool } from '../../src/pool/pool.ts';
import type { Task } from '../../src/pool/worker.ts';
import { workersFor } from '../../src/pool/build-workers.ts';
import { bundleBuildCode } from '../../src/pool/code.ts';
import { CACHE_DIR } from '../../src/output/layout.ts';

const now = new Date('2026-01-15T12:00:00Z');
let dir: string;
const build = (outDir: string, poolThreshold: number) => buildSite({ root: dir, outDir: path.join(dir, outDir), now, budgets: false, poolThreshold });

beforeAll(async () => { dir = await scratchProject('site-pool-'); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describe('the worker pool', () => {
  it('builds, in worker threads, exactly the site the main thread builds', async () => {
    const inline = await build('inline', Infinity);
    expect(inline.redone.pool).toBe(false);
    await rm(path.join(dir, CACHE_DIR), { recursive: true, force: true });
    const pooled = await build('pooled', 1);
    expect(pooled.redone).toMatchObject({ pool: true, parsed: inline.redone.parsed, rendered: inline.routes.length });
    expect(await filesOf(path.join(dir, 'pooled'))).toEqual(await filesOf(path.join(dir, 'inline')));
    expect(pooled.summary.html).toEqual(inline.summary.html);
    expect(pooled.summary.perPage).toEqual(inline.summary.perPage);
  });

  it('writes on the main thread the documents the workers hand back, each entry naming its file as written: the next build keeps every page', async () => {
    await rm(path.join(dir, CACHE_DIR), { recursive: true, force: true });
    const first = await build('handed', 1);
    expect(first.redone).toMatchObject({ pool: true, rendered: first.routes.length });
    const file = await stat(path.join(dir, 'handed/about.html'));
    expect(file.size).toBeGreaterThan(1000);
    // Unchanged, every page stands: its file is the one its entry names (inode, size, time), so nothing is made again.
    const again = await build('handed', 1);
    expect(again.redone).toMatchObject({ rendered: 0, documents: 0 });
    expect(await filesOf(path.join(dir, 'handed'))).toEqual(await filesOf(path.join(dir, 'inline')));
  });

  it('makes documents in the workers from the ones the last build wrote when only the shell changed, and renders again one edited by hand', async () => {
    await rm(path.join(dir, CACHE_DIR), { recursive: true, force: true });
    const withShell = (outDir: string, extraHead?: string) => buildSite({ root: dir, outDir: path.join(dir, outDir), now, budgets: false, poolThreshold: 1, extraHead });
    const first = await withShell('shell');
    expect(first.redone).toMatchObject({ pool: true, rendered: first.routes.length });

    // One page's document changed by hand: it is rendered again; the rest are cut out of the documents there.
    const edited = path.join(dir, 'shell/privacy-policy.html');
    await writeFile(edited, (await readFile(edited, 'utf8')).replace('</main>', '<p>added by hand</p></main>'));
    const tagged = await withShell('shell', '<meta name="x-test" content="shell">');
    expect(tagged.redone).toMatchObject({ pool: true, rendered: 1, documents: tagged.routes.length });
    expect(await readFile(edited, 'utf8')).not.toContain('added by hand');

    // Every page as a fresh build with the same shell writes it, and measured alike.
    await rm(path.join(dir, CACHE_DIR), { recursive: true, force: true });
    const fresh = await buildSite({ root: dir, outDir: path.join(dir, 'shell-fresh'), now, budgets: false, poolThreshold: 1, extraHead: '<meta name="x-test" content="shell">' });
    expect(await filesOf(path.join(dir, 'shell'))).toEqual(await filesOf(path.join(dir, 'shell-fresh')));
    expect(tagged.summary.perPage).toEqual(fresh.summary.perPage);
    expect(await readFile(path.join(dir, 'shell/about.html'), 'utf8')).toContain('<meta name="x-test" content="shell">');
  });

  it('puts each share card into the output as a link to the cached card, not a copy', async () => {
    const built = await build('cards', 1);
    const [url, src] = Object.entries(JSON.parse(await readFile(path.join(built.deployDir, 'cards.json'), 'utf8')) as Record<string, string>)[0]!;
    expect(url).toBeTruthy();
    const inTree = await stat(path.join(dir, 'cards', src));
    expect(inTree.nlink).toBeGreaterThan(1);
  });

  it('reports every content error found in the workers at once, with file, line, field and hint', async () => {
    await writeFile(path.join(dir, 'content/blog/what-is-data.md'), '---\ntitle: T\n---\n\nIntro.\n\n<div>raw</div>\n');
    await writeFile(path.join(dir, 'content/blog/your-data-is-fine.md'), '---\ntitle: T\n---\n\nOne.\n\n:::warning\nBox.\n:::\n');
    const error = await build('broken', 1).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ContentErrors);
    const lines = (error as ContentErrors).errors.map(formatContentError);
    expect(lines).toContain('content/blog/what-is-data.md:7 body: contains raw HTML, which the site does not allow in markdown (hint: use a directive such as :::fix … ::: for boxes)');
    expect(lines).toContainEqual(expect.stringMatching(/^content\/blog\/your-data-is-fine\.md:7 body: uses the unknown directive :::warning \(hint: known directives: /));
    // The front matter of both files is checked too, in the same report.
    expect(lines).toContainEqual(expect.stringMatching(/^content\/blog\/what-is-data\.md:\d* ?excerpt: /));
    expect(lines).toContainEqual(expect.stringMatching(/^content\/blog\/your-data-is-fine\.md:\d* ?excerpt: /));
  });
});

describe('how many workers a build starts', () => {
  it('one per 2,000 files or pages, one per core at most, one at least; a card counts for twenty pages', () => {
    // Two cores: a thousand articles' 1,545 pages do not pay for a second worker's start; ten thousand's do.
    expect([0, 1_008, 1_545, 14_807].map((work) => workersFor(work, 2))).toEqual([1, 1, 1, 2]);
    // Eight: ten thousand articles' pages pay for all of them.
    expect([1_545, 4_001, 14_807].map((work) => workersFor(work, 8))).toEqual([1, 3, 8]);
    // The 1,031 cards of a thousand articles' first build: every core.
    expect([2, 8].map((cores) => workersFor(1_031 * 20, cores))).toEqual([2, 8]);
  });

  it('adds workers to a pool as it grows, before and after it is told its code, each of which takes work', async () => {
    const code = await bundleBuildCode(dir);
    const pool = new WorkerPool({ root: dir }, 1).grow(2);
    expect(pool.size).toBe(2);
    const ready = (worker: (typeof pool.workers)[number]) => new Promise<void>((resolve) => {
      const onMessage = (m: { ready?: true }) => { if (m.ready) { worker.off('message', onMessage); resolve(); } };
      worker.on('message', onMessage);
    });
    const booted = pool.workers.map(ready);
    pool.boot(code.workerFile, { renderUrl: code.renderUrl, cardsUrl: code.cardsUrl });
    await Promise.all(booted);
    pool.grow(3).grow(2);
    expect(pool.size).toBe(3);
    await ready(pool.workers[2]!);
    // As many tasks at once as workers: each is taken.
    expect(await Promise.all([1, 2, 3].map(() => pool.run({ kind: 'markdown', jobs: [] })))).toEqual([[], [], []]);
    await pool.close();
  });
});

describe('the thread that owns the pool, helping', () => {
  it('takes the markdown tasks its workers have no room for, never a card task, each answered with its own results; none beside a worker per core', async () => {
    const code = await bundleBuildCode(dir);
    const pool = new WorkerPool({ file: code.workerFile, data: { renderUrl: code.renderUrl, cardsUrl: code.cardsUrl } }, 1);
    await new Promise<void>((resolve) => pool.workers[0]!.once('message', () => resolve()));
    const here: Task['kind'][] = [];
    const helper = async (task: Task) => { here.push(task.kind); return ['parsed here']; };
    // One worker on one core: this thread would only take its CPU.
    pool.helpHere(helper, 1);
    expect(await Promise.all([1, 2, 3, 4].map(() => pool.run({ kind: 'markdown', jobs: [] })))).toEqual([[], [], [], []]);
    expect(here).toEqual([]);
    pool.helpHere(helper, 2);
    // A long first task keeps the worker busy (a markdown file of some 20,000 paragraphs); it holds
    // the next as well, so this thread takes the third, a turn after it is queued, and the fourth
    // goes to whichever of the two is free first.
    const long = { kind: 'markdown' as const, jobs: [{ rel: 'blog/long.md', source: `---\ntitle: Long\n---\n${'A paragraph of words.\n\n'.repeat(20_000)}` }] };
    const answers = await Promise.all([long, ...[2, 3, 4].map(() => ({ kind: 'markdown' as const, jobs: [] }))].map((task) => pool.run(task)));
    expect(answers[0]).toHaveLength(1);
    expect(here.length).toBeGreaterThanOrEqual(1);
    expect(answers.slice(1).filter((a) => a.length === 1)).toHaveLength(here.length);
    expect(answers.slice(1).filter((a) => a.length === 0)).toHaveLength(3 - here.length);
    // Cards only in the workers, whose drawing code this thread does not load.
    here.length = 0;
    expect(await Promise.all([1, 2, 3].map(() => pool.run({ kind: 'cards', jobs: [] })))).toEqual([[], [], []]);
    expect(here).toEqual([]);
    await pool.close();
  });
});

describe('stopping the pool', () => {
  it('fails the work still waiting for a worker, rather than leave it waiting for ever', async () => {
    // Started without its code (as a large build starts it early), its workers take nothing until booted.
    const pool = new WorkerPool({ root: dir }, 1);
    const waiting = expect(pool.run({ kind: 'markdown', jobs: [] })).rejects.toThrow('the build workers were stopped');
    await pool.close();
    await waiting;
    await expect(pool.run({ kind: 'markdown', jobs: [] })).rejects.toThrow('stopped');
  });
});
