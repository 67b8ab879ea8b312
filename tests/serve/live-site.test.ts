import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/serve/server.ts';
import { serveOutDirOf } from '../../src/output/layout.ts';
import { editFile, scratchProject } from '../scratch-project.ts';

/** `site serve` on a scratch copy of the project, answering saves of an article from memory. */
let dir: string;
let server: RunningServer;
const lines: string[] = [];
const ARTICLE = 'content/blog/what-is-data.md';
/** Within the test's 120 s timeout (vitest.config.ts), so that a hang fails with its story. */
const HANG_GUARD_MS = 100_000;

beforeAll(async () => {
  dir = await scratchProject('site-live-');
  server = await startServer({ root: dir, port: 0, host: '127.0.0.1', log: (line) => lines.push(line) });
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Resolves on the next 'reload' event; the stream is open when this returns, so a save made after it cannot be missed. */
async function nextReload(): Promise<{ done: Promise<void> }> {
  const res = await fetch(`${server.url}/__site/events`);
  const reader = res.body!.getReader();
  // Wrapped: an async function returning the bare promise would wait for the reload itself.
  return { done: (async () => {
    const deadline = setTimeout(() => void reader.cancel(), 60_000);
    let text = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) throw new Error('no reload came');
      text += new TextDecoder().decode(value);
      if (text.includes('event: reload')) break;
    }
    clearTimeout(deadline);
    await reader.cancel();
  })() };
}

const page = async (url: string) => {
  const res = await fetch(`${server.url}${url}`);
  return { status: res.status, headers: res.headers, text: await res.text() };
};
const since = (n: number) => lines.slice(n).join('\n');

describe('site serve, an article saved', () => {
  it('makes its page in memory, with the production headers, and leaves the built tree alone', async () => {
    const onDisk = await readFile(path.join(serveOutDirOf(dir), 'blog/what-is-data.html'), 'utf8');
    const before = lines.length;
    const reloaded = await nextReload();
    await editFile(dir, ARTICLE, (s) => `${s}\nA sentence saved a moment ago.\n`);
    await reloaded.done;
    const saved = await page('/blog/what-is-data');
    expect(saved.status).toBe(200);
    expect(saved.text).toContain('A sentence saved a moment ago.');
    expect(saved.text).toContain('/__site/live-reload.js');
    const about = await page('/about');
    for (const header of ['content-security-policy', 'x-content-type-options', 'cache-control', 'content-type']) {
      expect({ header, value: saved.headers.get(header) }).toEqual({ header, value: about.headers.get(header) });
    }
    // One page made, no build: no page of the tree on disk was written.
    expect(since(before)).toMatch(/^built 1 page in \d+ ms \(1 rendered, 0 more when asked for;/m);
    expect(since(before)).not.toMatch(/pages in \d+ ms \(\d+ rendered, the rest unchanged/);
    expect(await readFile(path.join(serveOutDirOf(dir), 'blog/what-is-data.html'), 'utf8')).toBe(onDisk);
  });

  it('shows a new title on the article, the lists and the feed that show it, with its new share card', async () => {
    const title = 'What Is Data, Saved Just Now?';
    const reloaded = await nextReload();
    await editFile(dir, ARTICLE, (s) => s.replace(/^title: .*$/m, `title: "${title}"`));
    await reloaded.done;
    const article = await page('/blog/what-is-data');
    expect(article.text).toContain(title);
    for (const url of ['/blog', '/blog/category/data-literacy']) {
      const list = await page(url);
      expect({ url, shows: list.text.includes(title) }).toEqual({ url, shows: true });
    }
    expect((await page('/blog/feed.xml')).text).toContain(`<title>${title}</title>`);
    const card = /<meta property="og:image" content="https:\/\/[^/]+(\/og\/[^"]+)"/.exec(article.text)![1]!;
    const png = await fetch(`${server.url}${card}`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect((await fetch(`${server.url}/__site/card/blog/what-is-data`, { redirect: 'manual' })).headers.get('location')).toBe(card);
  });

  it("shows the newest article's new title in the 'Continue Reading' of the others", async () => {
    const newest = 'content/blog/data-transformation-before-ai-adoption.md';
    const title = 'Data Transformation Before AI, Retitled';
    const before = lines.length;
    const reloaded = await nextReload();
    await editFile(dir, newest, (s) => s.replace(/^title: .*$/m, `title: "${title}"`));
    await reloaded.done;
    // Every other article shows it; those a reader opens are made when asked for.
    expect(since(before)).toMatch(/^built \d+ pages in \d+ ms \(1 rendered, \d+ more when asked for;/m);
    for (const url of ['/blog/what-is-data', '/blog/your-data-is-fine']) {
      const neighbour = await page(url);
      expect({ url, shows: neighbour.text.includes(title) }).toEqual({ url, shows: true });
    }
    expect((await page('/blog/data-transformation-before-ai-adoption')).text).toContain(title);
  });

  it("answers a new article's own page from the moment the blog lists it, never the fallback's redirect", async () => {
    const title = 'A Brand New Article, Added While Serving';
    const url = '/blog/a-brand-new-article-added-while-serving';
    const source = await readFile(path.join(dir, ARTICLE), 'utf8');
    const reloaded = await nextReload();
    await writeFile(path.join(dir, 'content/blog/a-brand-new-article-added-while-serving.md'), source.replace(/^title: .*$/m, `title: "${title}"`));
    // Asked for over and over while the build runs: each time the list shows it, the page that follows is its own.
    // No count of asks bounds it (a count is a race with the machine's speed: twenty thousand ran out beside
    // stress-ng, 30 November 2026). The hang guard is time: well past a build (about a second alone, 20 s at
    // the most seen), it fails with what serve said since the save and what it last answered, before the
    // test's own timeout would fail it with nothing.
    const redirectedAfterListed: number[] = [];
    let own: { status: number; text: string } | undefined;
    const before = lines.length;
    const guard = Date.now() + HANG_GUARD_MS;
    for (let asked = 0; !own; asked++) {
      const blog = await page('/blog');
      const listed = blog.text.includes(title);
      const res = await fetch(`${server.url}${url}`, { redirect: 'manual' });
      const answer = { status: res.status, text: await res.text() };
      if (answer.status === 200) own = answer;
      else if (listed) redirectedAfterListed.push(asked);
      if (!own && Date.now() > guard) {
        throw new Error(`the new article was never served: ${asked + 1} asks; last /blog ${blog.status}, listed ${listed}; last ${url} ${answer.status} ${res.headers.get('location') ?? ''}; serve since the save:\n${since(before)}`);
      }
    }
    expect(redirectedAfterListed).toEqual([]);
    expect(own.text).toContain(title);
    await reloaded.done;
  });

  it('builds when a save is not valid, showing the error in the browser, and takes the fix', async () => {
    let reloaded = await nextReload();
    await editFile(dir, ARTICLE, (s) => s.replace(/^date: .*$/m, 'date: someday'));
    await reloaded.done;
    const broken = await page('/blog/what-is-data');
    expect(broken.status).toBe(500);
    expect(broken.text).toMatch(/content\/blog\/what-is-data\.md:\d+ date: expected an ISO date like 2025-09-24/);
    reloaded = await nextReload();
    await editFile(dir, ARTICLE, (s) => s.replace(/^date: someday$/m, 'date: 2025-05-13'));
    await reloaded.done;
    const fixed = await page('/blog/what-is-data');
    expect(fixed.status).toBe(200);
    expect(fixed.text).toContain('A sentence saved a moment ago.');
  });
});

describe('site serve, started again', () => {
  it('answers from the pages it built last while it builds, then reloads', async () => {
    await server.close();
    const log: string[] = [];
    let first: Promise<{ status: number; text: string; built: boolean }> | undefined;
    server = await startServer({
      root: dir, port: 0, host: '127.0.0.1', log: (line) => log.push(line),
      listening: (url) => { first = fetch(`${url}/about`).then(async (res) => ({ status: res.status, text: await res.text(), built: log.some((l) => /^built \d+ pages/.test(l)) })); },
    });
    const answer = await first!;
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('/__site/live-reload.js');
    // Answered before the build said it was done.
    expect(answer.built).toBe(false);
  });
});
