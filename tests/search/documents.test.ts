import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSite, type Site } from '../../src/content/load.ts';
import { categoriesOf } from '../../src/content/categories.ts';
import { bodyMarker } from '../../src/body-marker.ts';
import { CASE_STUDY_CATEGORY, SERVICE_CATEGORY, finishDocument, plannedDocuments, textOfHtml, type SearchDocument } from '../../src/search/documents.ts';

let site: Site;
let documents: SearchDocument[];
beforeAll(async () => {
  site = await loadSite(path.resolve('content'));
  documents = await Promise.all((await plannedDocuments(site)).map((r) => finishDocument(r, async () => undefined)));
});

describe('what the search index is fed', () => {
  it('one document per article, case study and service page, and nothing else', () => {
    expect(documents.map((r) => r.url).sort()).toEqual([
      ...site.posts.map((p) => `/blog/${p.slug}`),
      ...site.caseStudies.map((c) => `/case-studies/${c.slug}`),
      ...site.collections.services.map((s) => `/services/${s.slug}`),
    ].sort());
  });

  it("holds each page's own words: an article's excerpt, body and questions; a case study's and a service's copy", () => {
    const post = site.posts[0]!;
    const article = documents.find((r) => r.url === `/blog/${post.slug}`)!;
    expect(article.meta.title).toBe(post.title);
    expect(article.content).toContain(post.excerpt);
    expect(article.content).toContain(post.faq[2]!.answer);
    // A sentence of the body, as text: tags gone, references decoded.
    const firstParagraph = textOfHtml(/<p>([\s\S]*?)<\/p>/.exec(post.html)![1]!);
    expect(article.content).toContain(firstParagraph);
    expect(article.content).not.toMatch(/<\/?[a-z][^>]*>|&amp;|&#/);
    const study = site.caseStudies[0]!;
    expect(documents.find((r) => r.url === `/case-studies/${study.slug}`)!.content).toContain(study.results[0]);
    const service = site.collections.services[0]!;
    const document = documents.find((r) => r.url === `/services/${service.slug}`)!;
    expect(document.meta.title).toBe(service.hero.heading);
    expect(document.content).toContain(service.challenge.text);
  });

  it('never the header, the footer, the cookie bar or Continue Reading', () => {
    // The layout's words: the navigation's labels in a row, the footer's blurb and headings, the cookie bar, the related articles' heading.
    const layout = ['About DIAlog Services Our Work Insights', 'Cookie Consent', 'We use necessary cookies', 'Continue Reading', 'All rights reserved', 'Cookie settings', "Let's Talk Data", site.settings.officeHours, site.settings.email];
    for (const document of documents) for (const words of layout) expect(document.content, `${document.url} holds "${words}"`).not.toContain(words);
    // Nor another article's title, as Continue Reading would bring in: each article's document names only itself.
    for (const post of site.posts) {
      const others = site.posts.filter((p) => p !== post && !post.html.includes(p.title) && !post.excerpt.includes(p.title));
      const content = documents.find((r) => r.url === `/blog/${post.slug}`)!.content;
      for (const other of others) expect(content).not.toContain(other.title);
    }
    // No image paths, alt text fields or head-only copy of the YAML pages.
    for (const document of documents) expect(document.content).not.toMatch(/\/images\/|\.svg\b/);
  });

  it('files each article under its categories as a filter, dated for sorting; the other pages under their kind', () => {
    for (const post of site.posts) {
      const document = documents.find((r) => r.url === `/blog/${post.slug}`)!;
      expect(document.filters.category).toEqual([...categoriesOf(post)]);
      expect(document.meta.date).toBe(post.date);
      expect(document.sort.date).toBe(post.date);
    }
    for (const r of documents.filter((r) => r.url.startsWith('/case-studies/'))) expect(r.filters.category).toEqual([CASE_STUDY_CATEGORY]);
    for (const r of documents.filter((r) => r.url.startsWith('/services/'))) expect(r.filters.category).toEqual([SERVICE_CATEGORY]);
  });

  it('leaves out a page whose content says search: false', async () => {
    const [post, ...rest] = site.posts;
    const hidden: Site = {
      ...site,
      posts: [{ ...post!, search: false }, ...rest],
      caseStudies: site.caseStudies.map((c, i) => (i === 0 ? { ...c, search: false } : c)),
      collections: { ...site.collections, services: site.collections.services.map((s, i) => (i === 0 ? { ...s, search: false } : s)) },
    };
    const urls = (await plannedDocuments(hidden)).map((r) => r.url);
    expect(urls).not.toContain(`/blog/${post!.slug}`);
    expect(urls).not.toContain(`/case-studies/${site.caseStudies[0]!.slug}`);
    expect(urls).not.toContain(`/services/${site.collections.services[0]!.slug}`);
    expect(urls).toHaveLength(documents.length - 3);
  });

  it("names a cached body by its key, so the index's key needs no body; the body is read back only to index it", async () => {
    const post = { ...site.posts[0]!, html: bodyMarker('k1') };
    const [planned] = await plannedDocuments({ ...site, posts: [post], caseStudies: [], collections: { ...site.collections, services: [] } });
    expect(planned!.bodyKey).toBe('k1');
    expect(JSON.stringify(planned)).not.toContain(site.posts[0]!.html.slice(0, 40));
    const read: string[] = [];
    const document = await finishDocument(planned!, async (key) => { read.push(key); return '<p>Fish &amp; chips</p>'; });
    expect(read).toEqual(['k1']);
    expect(document.content).toMatch(/Fish & chips$/);
    await expect(finishDocument(planned!, async () => undefined)).rejects.toThrow(/body of \/blog\/.* is missing/);
  });
});
