// `site serve` started again over the pages of its last run: an article saved while its first build
// runs is answered from that build's plan (src/serve/server.ts, StartupSaves), before the build ends.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/serve/server.ts';
import { scratchProject } from '../scratch-project.ts';

let dir: string;
const ARTICLE = 'content/blog/what-is-data.md';

beforeAll(async () => {
  dir = await scratchProject('site-startup-save-');
  // serve's first run: the pages the next run answers from while it builds.
  const first = await startServer({ root: dir, port: 0, host: '127.0.0.1', log: () => undefined });
  await first.close();
}, 600_000);
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

/** Resolves on the next 'reload' event of the stream at `url`, which is open when this returns. */
async function nextReload(url: string): Promise<{ done: Promise<void> }> {
  const res = await fetch(`${url}/__site/events`);
  const reader = res.body!.getReader();
  // Wrapped: an async function returning the bare promise would wait for the reload itself.
  return { done: (async () => {
    // A minute at most: a save left waiting for the held build never reloads.
    const deadline = setTimeout(() => void reader.cancel(), 60_000);
    let text = '';
    while (!text.includes('event: reload')) {
      const { value, done } = await reader.read();
      if (done) throw new Error('no reload came');
      text += new TextDecoder().decode(value);
    }
    clearTimeout(deadline);
    await reader.cancel();
  })() };
}

describe('site serve started again, an article saved during its first build', () => {
  let server: RunningServer | undefined;
  afterAll(async () => { await server?.close(); });

  it('is answered from memory before that build ends, and the build that ends shows it too', async () => {
    const lines: string[] = [];
    let url!: string;
    let listening!: () => void;
    const heard = new Promise<void>((resolve) => { listening = resolve; });
    // The first build held once it has planned, until the save has been answered: a build that takes as long as it must.
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    const starting = startServer({ root: dir, port: 0, host: '127.0.0.1', log: (line) => lines.push(line), listening: (at) => { url = at; listening(); }, firstBuildPlanned: () => held });
    let started = false;
    void starting.then((s) => { server = s; started = true; });
    await heard;
    // The first answer, from the last run's pages: the first build starts once it is given.
    expect((await fetch(`${url}/blog/what-is-data`)).status).toBe(200);
    const reloaded = await nextReload(url);
    // Saved again until serve has seen a save: its watcher starts a moment after the first answer, just before the build.
    const original = await readFile(path.join(dir, ARTICLE), 'utf8');
    for (let i = 0; !lines.some((line) => line.startsWith('changed: ')); i++) {
      await writeFile(path.join(dir, ARTICLE), `${original}\nA sentence saved while serve was starting.\n`.repeat(1 + (i % 2)));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await reloaded.done;
    const builtAtReload = started;
    const shown = await (await fetch(`${url}/blog/what-is-data`)).text();
    release();
    await starting;

    expect(builtAtReload, lines.join("\n")).toBe(false);
    expect(shown).toContain('A sentence saved while serve was starting.');
    const answered = lines.findIndex((line) => /^built 1 page in \d+ ms, while the first build runs \(1 rendered\)$/.test(line));
    const summary = lines.findIndex((line) => /^built \d+ pages/.test(line) && !/while the first build runs/.test(line));
    expect(answered).toBeGreaterThan(-1);
    expect(summary).toBeGreaterThan(answered);
    // Once the build is done, its own pages show the save (it is applied to them too), with no second build.
    expect(await (await fetch(`${url}/blog/what-is-data`)).text()).toContain('A sentence saved while serve was starting.');
    expect(lines.filter((line) => /^built \d+ pages/.test(line) && !/while the first build runs/.test(line))).toHaveLength(1);
  }, 600_000);
});
