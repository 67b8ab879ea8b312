// `site serve` started again over the pages of its last run: an article saved while its first build
// runs is answered before the build ends: from the last run's records before the build has planned
// (src/serve/recorded-saves.ts), from the build's plan after (src/serve/startup-saves.ts).
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

/** A promise and the call that settles it: an event a test waits for, or holds serve's first build on. */
function signal(): { promise: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const promise = new Promise<void>((resolve) => { fire = resolve; });
  return { promise, fire };
}

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
    const heard = signal();
    // The first build held once it has planned, until the save has been answered: a build that takes as long as it must.
    const held = signal();
    const planned = signal();
    const starting = startServer({ root: dir, port: 0, host: '127.0.0.1', log: (line) => lines.push(line), listening: (at) => { url = at; heard.fire(); }, firstBuildPlanned: () => { planned.fire(); return held.promise; } });
    let started = false;
    void starting.then((s) => { server = s; started = true; });
    await heard.promise;
    // The first answer, from the last run's pages: the first build starts once it is given.
    expect((await fetch(`${url}/blog/what-is-data`)).status).toBe(200);
    const reloaded = await nextReload(url);
    // Saved once the build has planned (before, the last run's records answer: see below).
    await planned.promise;
    // Saved again until serve has seen a save.
    const original = await readFile(path.join(dir, ARTICLE), 'utf8');
    for (let i = 0; !lines.some((line) => line.startsWith('changed: ')); i++) {
      await writeFile(path.join(dir, ARTICLE), `${original}\nA sentence saved while serve was starting.\n`.repeat(1 + (i % 2)));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await reloaded.done;
    const builtAtReload = started;
    const shown = await (await fetch(`${url}/blog/what-is-data`)).text();
    held.fire();
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

describe('site serve started again, an article saved before its first build has loaded the content', () => {
  let server: RunningServer | undefined;
  afterAll(async () => { await server?.close(); });

  it("has its body answered from the last run's records; a title saved then waits for the build's plan; the build's site shows both", async () => {
    const lines: string[] = [];
    let url!: string;
    const heard = signal();
    // The first build held before it loads the content, until released: it cannot have planned.
    const held = signal();
    let planned = false;
    const starting = startServer({
      root: dir, port: 0, host: '127.0.0.1', log: (line) => lines.push(line), listening: (at) => { url = at; heard.fire(); },
      firstBuildStarting: () => held.promise, firstBuildPlanned: async () => { planned = true; },
    });
    void starting.then((s) => { server = s; });
    await heard.promise;
    expect((await fetch(`${url}/blog/what-is-data`)).status).toBe(200);
    const file = path.join(dir, ARTICLE);
    const original = await readFile(file, 'utf8');
    const body = `${original}\nA sentence saved before the build had read a single article.\n`;

    // A body saved: answered while the build is still held.
    let reloaded = await nextReload(url);
    for (let i = 0; !lines.some((line) => line.startsWith('changed: ')); i++) {
      await writeFile(file, i % 2 ? `${body}\n` : body);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await reloaded.done.catch((e: unknown) => { throw new Error(`${String(e)}:\n${lines.join("\n")}`); });
    const shown = await (await fetch(`${url}/blog/what-is-data`)).text();
    expect(planned, lines.join('\n')).toBe(false);
    expect(shown).toContain('A sentence saved before the build had read a single article.');
    expect(lines).toContainEqual(expect.stringMatching(/^built 1 page in \d+ ms from the last run's records, while the first build loads \(.*ms\)$/));

    // Its title saved, still before the build has planned: not answered from the records, which cannot tell what lists show it.
    const titled = body.replace(/^title: .*$/m, 'title: "Retitled while serve was starting"');
    expect(titled).not.toBe(body);
    const saves = lines.length;
    reloaded = await nextReload(url);
    await writeFile(file, titled);
    while (!lines.slice(saves).some((line) => line.startsWith('answered once the first build has planned: '))) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines.slice(saves)).toContainEqual(`answered once the first build has planned: ${ARTICLE}'s front matter changed`);
    held.fire();
    await reloaded.done;
    await starting;

    // The build's own site, once done, shows the body and the title, with no second build.
    const page = await (await fetch(`${url}/blog/what-is-data`)).text();
    expect(page).toContain('A sentence saved before the build had read a single article.');
    expect(page).toContain('Retitled while serve was starting');
    expect(lines.filter((line) => /^built \d+ pages/.test(line) && !/while the first build runs/.test(line))).toHaveLength(1);
  }, 600_000);
});
