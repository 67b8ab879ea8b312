import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { bundleBuildCode, codeBuildOptions } from '../../src/pool/code.ts';
import { PAGE_TEMPLATES } from '../../src/bundle/page-templates.ts';
import { parseMarkdownFile } from '../../src/content/markdown-file.ts';
import type { MarkdownJob, ParsedMarkdownFile } from '../../src/content/markdown-job.ts';
import { scratchProject } from '../scratch-project.ts';
// @ts-expect-error: a plain script of the bench, without types
import { writeArticles } from '../../scripts/bench-articles.mjs';

/**
 * The build's bundled markdown code compiles remark-html and the modules under it in, with
 * mdast-util-to-hast walking the tree by src/content/unist-visit.ts rather than unist-util-visit:
 * the differential test that this changes nothing. Every document below, parsed by the bundled
 * code (what the workers run) and by the sources (the package's own walk), gives the same result:
 * HTML, contents, links, images and errors. The fixtures have definitions, footnotes and references
 * to both, the one thing mdast-util-to-hast's walk looks for.
 */
let dir: string;
let generated: string;
let bundled: (job: MarkdownJob) => Promise<ParsedMarkdownFile>;
let code: string;
let worker: string;

beforeAll(async () => {
  dir = await scratchProject('site-code-packages-');
  generated = await mkdtemp(path.join(tmpdir(), 'code-packages-articles-'));
  await writeArticles(generated, 40);
  const built = await bundleBuildCode(dir);
  code = await readFile(new URL(built.markdownUrl), 'utf8');
  worker = await readFile(built.workerFile, 'utf8');
  bundled = ((await import(built.markdownUrl)) as { parseMarkdownFile: typeof bundled }).parseMarkdownFile;
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(generated, { recursive: true, force: true });
});

async function documents(folder: string): Promise<Array<[string, string]>> {
  const files = (await readdir(folder)).filter((f) => f.endsWith('.md')).sort();
  return Promise.all(files.map(async (f) => [f, await readFile(path.join(folder, f), 'utf8')] as [string, string]));
}

describe("the build's bundled markdown code", () => {
  it('has remark-html compiled in, and the walk in place of unist-util-visit', () => {
    expect(code).not.toMatch(/from ["']remark-html["']/);
    expect(code).toContain('this visit takes (tree, visitor) only');
    // unist-util-visit-parents names a closure after each node it visits: not in the bundle.
    expect(code).not.toContain('Object.defineProperty(visit, "name"');
  });

  it('loads no zod in a worker before it renders: the schemas are checked on the main thread', () => {
    // zod took a worker some 40 ms to load, twice over when the preload took its CommonJS build.
    expect(worker).not.toMatch(/from ["']zod(?:\/[^"']*)?["']/);
  });

  it('swaps the walk for mdast-util-to-hast alone: no other module it compiles in imports unist-util-visit', async () => {
    const options = codeBuildOptions(dir);
    const { metafile } = await build({ ...options, alias: { [PAGE_TEMPLATES]: options.alias[PAGE_TEMPLATES] } });
    const importers = Object.entries(metafile.inputs)
      .filter(([file, input]) => !file.includes('node_modules/unist-util-visit/') && input.imports.some((i) => i.path.includes('node_modules/unist-util-visit/')))
      .map(([file]) => file.replace(/^.*node_modules\//, ''));
    expect(importers).toEqual(['mdast-util-to-hast/lib/state.js']);
  });

  it("keeps a package the templates start to use an import, loaded from node_modules like React: only the markdown processor's are compiled in", async () => {
    const template = path.join(dir, 'templates/pages/NotFound.tsx');
    const before = await readFile(template, 'utf8');
    await writeFile(template, `import sirv from 'sirv';\nexport const handler = sirv;\n${before}`);
    try {
      const render = await readFile(new URL((await bundleBuildCode(dir)).renderUrl), 'utf8');
      expect(render).toMatch(/from ["']sirv["']/);
      expect(render).toMatch(/from ["']react["']/);
    } finally {
      await writeFile(template, before);
    }
  });

  it('parses every document exactly as the sources do', async () => {
    const docs = [
      ...await documents('content/blog'), ...await documents('content/pages'), ...await documents('tests/fixtures/markdown'),
      ...await documents(generated),
      ...(await readFile('tests/fixtures/markdown/parser/awkward.md', 'utf8')).split(/^%{5}\n/m).slice(1).map((body, i): [string, string] => [`awkward ${i + 1}`, `---\ntitle: t\n---\n${body}`]),
    ];
    expect(docs.length).toBeGreaterThan(70);
    const withFootnotes = docs.filter(([, source]) => /\[\^[^\]]+\]:/.test(source));
    expect(withFootnotes.length).toBeGreaterThan(0);
    for (const [rel, source] of docs) {
      const job: MarkdownJob = { source, rel };
      expect(await bundled(job), rel).toEqual(await parseMarkdownFile(job));
    }
  });
});
