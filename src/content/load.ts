import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { ContentErrors } from './errors.ts';
import { fillSettings, LEAD_RETENTION_PLACEHOLDER } from './settings-text.ts';
import type { TocEntry } from './markdown.ts';
import { parseMarkdownFile } from './markdown-file.ts';
import { parseJob, type LoadedMarkdown, type ParsedMarkdownFile } from './markdown-job.ts';
import { frontDigest, noteFrontDigest } from './front-digest.ts';
import { noteFrontHash } from './front-hash.ts';
import { breathe } from '../concurrency.ts';
import { hashOf } from '../hash.ts';
import { loadImages } from './images.ts';
import type { SiteImage } from '../images/site-image.ts';
import type { ImageUse } from '../images/picture.ts';
import { newestFirst } from './article-order.ts';
import { SLUG_PATTERN } from './field-rules.ts';
import { Collector, markdownSource, type BodyLinks, type KnownSources, type SourceLink } from './collector.ts';
import { siteSchema, postSchema, legalSchema, type SiteSettings, type PostFrontMatter, type CaseStudyData, type LegalFrontMatter } from './schemas.ts';
import { collectionSchemas, legalPages, pageSchemas, type CollectionContent, type PageContent } from './pages.ts';
import { categoryClashes, categorySlug, type CategoryUse } from './categories.ts';
import type { PreviewStatus } from './publication.ts';

export type { BodyLinks, KnownSource, KnownSources, SourceLink } from './collector.ts';

export interface Post extends PostFrontMatter {
  slug: string; html: string; toc: TocEntry[];
  /** The images the markdown body shows, which the page that prints the body reports as used. */
  bodyImages: ImageUse[];
  /** Set by the preview build alone, on a draft or scheduled article; production never carries one. */
  preview?: PreviewStatus;
}
export interface CaseStudy extends CaseStudyData { slug: string }
export interface LegalPage extends LegalFrontMatter { slug: string; html: string; toc: TocEntry[]; bodyImages: ImageUse[] }

/** Everything the site says, loaded and checked once; every page reads from this. */
export interface Site {
  settings: SiteSettings;
  pages: PageContent;
  collections: CollectionContent;
  /** Newest first (newestFirst): the one order that list pages, feeds and 'Continue Reading' read. */
  posts: Post[];
  caseStudies: CaseStudy[];
  legal: Record<(typeof legalPages)[number], LegalPage>;
  images: Record<string, SiteImage>;
  /** Every address the content's data links to (YAML values, front matter), with the file, field and line it is written at. */
  links: SourceLink[];
  /**
   * The addresses each markdown body links to, as its parse found them (in the build cache's entry):
   * kept by file, not copied out one object each, since only a build that leaves an article out reads
   * them (see sourceLinks), and a large blog's bodies hold a hundred thousand.
   */
  bodyLinks: BodyLinks[];
}

/** What the pages are made from: the site but the addresses it links to, which only the link checks read. */
export type SiteContent = Omit<Site, 'links' | 'bodyLinks'>;

/** Every address the content links to, with the file and line it is written at: its data's, then its bodies'. */
export function sourceLinks(site: Pick<Site, 'links' | 'bodyLinks'>): SourceLink[] {
  return [...site.links, ...site.bodyLinks.flatMap(({ file, links }) => links.map((l) => ({ file, line: l.line, path: 'body', href: l.href })))];
}

/** Where an article's file lives, as errors name it. */
export function postFile(slug: string): string {
  return `content/blog/${slug}.md`;
}

const LEGAL = legalPages;

/** How many markdown files a load will parse (the articles and the legal pages), from one directory listing. */
export async function markdownFileCount(contentDir: string): Promise<number> {
  const names = await readdir(path.join(contentDir, 'blog')).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith('.md')).length + LEGAL.length;
}

/** Parses markdown files, all at once so that a worker pool or a cache can serve them; results in the jobs' order. */
export type ParseMarkdown = (jobs: LoadedMarkdown[]) => Promise<ParsedMarkdownFile[]>;

const parseInline: ParseMarkdown = (jobs) => Promise.all(jobs.map((job) => parseMarkdownFile(parseJob(job))));

/**
 * Load content/ into a Site, or throw ContentErrors naming every bad file, field and line at once.
 * `sources`: what the build cache knows of the content the last load read (see KnownSources).
 */
export async function loadSite(root: string, parse: ParseMarkdown = parseInline, sources?: KnownSources): Promise<Site> {
  const { images, errors: imageErrors } = await loadImages(root, sources);
  const c = new Collector(root, sources, sources ? hashOf(...Object.keys(images)) : '');
  c.errors.push(...imageErrors);
  const settings = await c.yaml(path.join(root, 'site.yaml'), siteSchema, images);

  // Every markdown file read (synchronously: see Collector.readBytes) or known unchanged, then parsed in
  // one batch, which the workers take while this thread reads the other YAML files (it needed only the
  // survey addresses of site.yaml). A file that cannot be read is reported after those, as it always was.
  const files = [...await c.list('blog', '.md'), ...LEGAL.map((slug) => path.join(root, 'pages', `${slug}.md`))];
  const errorsBefore = c.errors.length;
  const readable: Array<{ file: string; job: LoadedMarkdown }> = [];
  for (const file of files) {
    const job = markdownSource(c, file, settings?.assessmentForms, images);
    if (job) readable.push({ file, job });
    await breathe();
  }
  const unread = c.errors.splice(errorsBefore);
  const parsing = parse(readable.map((r) => r.job));
  parsing.catch(() => { /* awaited below, once the YAML files are read */ });

  const pages: Partial<Record<string, unknown>> = {};
  await Promise.all(Object.entries(pageSchemas).map(async ([name, schema]) => {
    pages[name] = await c.yaml(path.join(root, 'pages', `${name}.yaml`), schema, images);
  }));

  const collections: Record<string, Array<{ slug: string; order?: number }>> = {};
  for (const [name, schema] of Object.entries(collectionSchemas) as Array<[string, z.ZodType]>) {
    const items: Array<{ slug: string; order?: number }> = [];
    for (const file of await c.list(name, '.yaml')) {
      const data = await c.yaml(file, schema, images);
      if (data) items.push({ ...(data as object), slug: path.basename(file, '.yaml') });
    }
    collections[name] = items.sort((a, b) => (a.order ?? 100) - (b.order ?? 100) || a.slug.localeCompare(b.slug));
  }

  c.errors.push(...unread);
  const parsed = new Map((await parsing).map((result, i) => [readable[i]!.file, result]));
  const fronts = new Map(readable.map(({ file, job }) => [file, job.front]));

  const unsorted: Post[] = [];
  const categoryUses: CategoryUse[] = [];
  for (const file of files.slice(0, files.length - LEGAL.length)) {
    await breathe();
    const result = parsed.get(file);
    const doc = result && c.markdown(file, result, postSchema, images);
    if (!doc) continue;
    const post: Post = { ...doc.data, slug: path.basename(file, '.md'), html: doc.body.html, toc: doc.body.toc, bodyImages: doc.body.images };
    if (doc.digest !== undefined) noteFrontDigest(post, doc.digest);
    const front = fronts.get(file);
    if (front !== undefined) noteFrontHash(post, front);
    unsorted.push(post);
    // The line is looked up only for an error: finding it parses the front matter again, on this thread.
    (doc.data.categories ?? []).forEach((name, i) => categoryUses.push({ name, file: c.rel(file), get line() { return doc.lineOf(['categories', i]); }, path: `categories[${i}]` }));
  }
  // Checked across every article, drafts included: a clash would surface the day the draft goes live.
  c.errors.push(...categoryClashes(categoryUses));
  const posts = newestFirst(unsorted);

  const legal: Partial<Record<(typeof LEGAL)[number], LegalPage>> = {};
  for (const slug of LEGAL) {
    const file = path.join(root, 'pages', `${slug}.md`);
    const result = parsed.get(file);
    const doc = result && c.markdown(file, result, legalSchema, images);
    const html = doc && settings ? fillSettings(doc.body.html, settings, c.rel(file), slug === 'privacy-policy' ? [LEAD_RETENTION_PLACEHOLDER] : [], c.errors) : doc?.body.html;
    if (doc && html !== undefined) legal[slug] = { ...doc.data, slug, html, toc: doc.body.toc, bodyImages: doc.body.images };
  }

  for (const [dir, slugs] of [['blog', posts.map((p) => p.slug)], ...Object.entries(collections).map(([name, items]) => [name, items.map((i) => i.slug)] as const)] as const) {
    for (const s of slugs) if (!SLUG_PATTERN.test(s)) c.errors.push({ file: `content/${dir}/${s}`, path: '', message: 'has a file name that is not a URL slug', hint: 'use lower-case letters, digits and hyphens' });
  }

  if (c.errors.length || !settings) throw new ContentErrors(c.errors);
  const caseStudies = (collections as CollectionContent)['case-studies'];
  return Object.freeze({ settings, pages: pages as PageContent, collections: collections as CollectionContent, posts, caseStudies, legal: legal as Site['legal'], images, links: c.links, bodyLinks: c.bodyLinks });
}

/**
 * One article read again on its own, as a whole load would read it (`site serve`'s save of an
 * article): the file parsed by `parse`, its front matter checked against the schema, the images it
 * names against the site's, its file name as a slug and its categories against `others`' (the
 * site's other articles). Returns the article and the digest of its front matter; throws
 * ContentErrors as loadSite would (a caller that wants every error, with lines, loads the site).
 */
export async function loadArticle(root: string, file: string, site: Pick<Site, 'settings' | 'images'>, others: readonly Post[], parse: ParseMarkdown = parseInline): Promise<{ post: Post; digest: string }> {
  const { settings, images } = site;
  const c = new Collector(root);
  const job = markdownSource(c, file, settings.assessmentForms, images);
  const parsed = job && (await parse([job]))[0];
  const doc = parsed && c.markdown(file, parsed, postSchema, images);
  const slug = path.basename(file, '.md');
  if (!SLUG_PATTERN.test(slug)) c.errors.push({ file: c.rel(file), path: '', message: 'has a file name that is not a URL slug', hint: 'use lower-case letters, digits and hyphens' });
  if (doc) {
    // Only another spelling of one of its own categories can clash anew: the others' were checked by the load before.
    const mine = doc.data.categories ?? [];
    const spelt = new Map(mine.map((name) => [categorySlug(name), name]));
    const uses: CategoryUse[] = [];
    for (const p of others) {
      if (p.slug === slug || !p.categories) continue;
      p.categories.forEach((name, i) => { const own = spelt.get(categorySlug(name)); if (own !== undefined && own !== name) uses.push({ name, file: postFile(p.slug), path: `categories[${i}]` }); });
    }
    mine.forEach((name, i) => uses.push({ name, file: c.rel(file), path: `categories[${i}]` }));
    c.errors.push(...categoryClashes(uses));
  }
  if (c.errors.length || !doc) throw new ContentErrors(c.errors);
  const post: Post = { ...doc.data, slug, html: doc.body.html, toc: doc.body.toc, bodyImages: doc.body.images };
  const digest = frontDigest(doc.data as object);
  noteFrontDigest(post, digest);
  return { post, digest };
}
