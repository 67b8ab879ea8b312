import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSite, postFile, sourceLinks, type Site } from '../../src/content/load.ts';
import { renderMarkdown, type DocumentLink, type TocEntry } from '../../src/content/markdown.ts';
import type { ContentError } from '../../src/content/errors.ts';

/**
 * The markdown renderer against golden files written by the remark → hast → HTML pipeline it
 * replaced: every real article, both legal pages, and two fixtures (every construct; every error).
 * `UPDATE_GOLDEN=1 npx vitest run tests/content/markdown-golden.test.ts` rewrites them: do that
 * only for a change of output you mean, and say why in the commit.
 */
const GOLDEN = path.resolve('tests/fixtures/markdown/golden');
const FIXTURES = path.resolve('tests/fixtures/markdown');
const update = process.env.UPDATE_GOLDEN === '1';

interface Rendered { html: string; toc: TocEntry[]; links: DocumentLink[]; errors?: ContentError[] }

/**
 * Where today's HTML may differ from the golden files, and why. Nothing else may.
 * - A heading's id and contents entry are made from the text the reader sees. remark's plugin read
 *   the heading before its text directives were put back as text, so 'Note:important' lost
 *   ':important' (and ':x[label]' its ':x') from its id and contents entry though the page showed them.
 * - A reference link whose definition is an `assessment-form:` address goes to the survey like an
 *   inline one; remark's plugin saw only inline links, and left `href="assessment-form:teams"`.
 * - An image of content/images is a responsive <picture>: an SVG one file under its
 *   hashed name, lazy, with its size; an image that is not in content/images is a content error.
 */
const DIFFERENCES: Record<string, Array<[before: string, now: string]>> = {
  'tour.html': [
    ['id="note-with-a-footnote-inside"', 'id="note-important-with-a-footnote-inside"'],
    ['<img src="/images/blog-placeholder.svg" alt="An image" title="Image title">', '<picture><img src="/assets/images/blog-placeholder-7c4022631b.svg" width="1200" height="630" alt="An image" title="Image title" decoding="async" loading="lazy"></picture>'],
    ['<img src="/images/favicon.svg" alt="reference image">', '<picture><img src="/assets/images/favicon-a0213f7090.svg" width="32" height="32" alt="reference image" decoding="async" loading="lazy"></picture>'],
  ],
  'tour.json': [
    ['"id": "note-with-a-footnote-inside"', '"id": "note-important-with-a-footnote-inside"'],
    ['"text": "Note, with a footnote inside"', '"text": "Note:important, with a footnote inside"'],
  ],
  'edge.html': [
    ['id="heading-with-label-directive"', 'id="heading-with-x-label-directive"'],
    ['<a href="assessment-form:teams">Reference to a survey</a>', '<a href="https://forms.example.com/dialog/teams" target="_blank" rel="noopener noreferrer">Reference to a survey<svg class="icon icon--external" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false"><path d="M14 4h6v6M20 4l-9 9"></path><path d="M18 14v5a1 1 0 01-1 1H5a1 1 0 01-1-1V7a1 1 0 011-1h5"></path></svg><span class="visually-hidden"> (opens in a new tab)</span></a>'],
  ],
  'edge.json': [
    ['"id": "heading-with-label-directive"', '"id": "heading-with-x-label-directive"'],
    ['"errors": []', `"errors": ${JSON.stringify([{ file: 'content/blog/edge.md', line: 5, path: 'body', message: 'names the image /images/x.svg, which is not in content/images', hint: 'put the file in content/images and write its path as /images/name.jpg' }], null, 2).replace(/\n/g, '\n  ')}`],
    ['"text": "Heading with label directive"', '"text": "Heading with :x[label] directive"'],
  ],
};

const expected = async (file: string) => {
  let text = await readFile(file, 'utf8');
  for (const [before, now] of DIFFERENCES[path.basename(file)] ?? []) {
    expect(text, `${file}: the difference '${before}' is gone from the golden file`).toContain(before);
    text = text.replace(before, now);
  }
  return text;
};

async function golden(name: string, actual: Rendered) {
  const htmlFile = path.join(GOLDEN, `${name}.html`);
  const restFile = path.join(GOLDEN, `${name}.json`);
  const rest = JSON.stringify({ toc: actual.toc, links: actual.links, ...(actual.errors ? { errors: actual.errors } : {}) }, null, 2) + '\n';
  if (update) {
    await mkdir(GOLDEN, { recursive: true });
    await writeFile(htmlFile, actual.html);
    await writeFile(restFile, rest);
    return;
  }
  expect(existsSync(htmlFile), `no golden file for ${name}: see the comment at the top of this test`).toBe(true);
  expect(actual.html).toBe(await expected(htmlFile));
  expect(rest).toBe(await expected(restFile));
}

let site: Site;
beforeAll(async () => { site = await loadSite(path.resolve('content')); });
/** The addresses a loaded document's body links to, as the markdown renderer reported them. */
const linksOf = (file: string): DocumentLink[] => sourceLinks(site).filter((l) => l.file === file && l.path === 'body').map(({ href, line }) => ({ href, line }));

describe('markdown, against the HTML of the remark pipeline', () => {
  it('renders every real article as before', async () => {
    expect(site.posts.length).toBeGreaterThan(0);
    for (const post of site.posts) await golden(`blog-${post.slug}`, { ...post, links: linksOf(postFile(post.slug)) });
  });

  it('renders the legal pages as before', async () => {
    for (const page of Object.values(site.legal)) await golden(`page-${page.slug}`, { ...page, links: linksOf(`content/pages/${page.slug}.md`) });
  });

  it('renders every construct of the tour fixture as before', async () => {
    const source = await readFile(path.join(FIXTURES, 'tour.md'), 'utf8');
    const { html, toc, links, errors } = await renderMarkdown(source, 'content/blog/tour.md', 0, undefined, site.images);
    expect(errors).toEqual([]);
    await golden('tour', { html, toc, links, errors });
  });

  it('renders the edge cases of the edge fixture as before', async () => {
    const source = await readFile(path.join(FIXTURES, 'edge.md'), 'utf8');
    const { html, toc, links, errors } = await renderMarkdown(source, 'content/blog/edge.md', 0, site.settings.assessmentForms, site.images);
    await golden('edge', { html, toc, links, errors });
  });

  it('reports every refused construct with its line, as before', async () => {
    const source = await readFile(path.join(FIXTURES, 'errors.md'), 'utf8');
    const { toc, links, errors } = await renderMarkdown(source, 'content/blog/errors.md', 10, site.settings.assessmentForms);
    expect(errors.length).toBeGreaterThanOrEqual(4);
    // A document with errors stops the build, so its HTML is never used: only the errors count.
    await golden('errors', { html: '', toc, links, errors });
  });
});
