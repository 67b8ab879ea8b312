import { readFileSync, statSync, type Stats } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { issueToWords, pathToString, ContentErrors, type ContentError } from './errors.ts';
import { parseYaml, type ParsedYaml } from './yaml.ts';
import { fillSettings, LEAD_RETENTION_PLACEHOLDER } from './settings-text.ts';
import type { DocumentLink, TocEntry } from './markdown.ts';
import { digestOf, parseJob, parseMarkdownFile, type CheckedFront, type LoadedMarkdown, type ParsedMarkdownFile } from './markdown-file.ts';
import { readFrontMatter } from './front-matter.ts';
import { frontDigest, noteFrontDigest } from './front-digest.ts';
import { hashOf } from '../hash.ts';
import { loadImages, type SiteImage } from './images.ts';
import type { ImageUse } from '../images/picture.ts';
import { imagesNamedIn } from './markdown-images.ts';
import { newestFirst } from './article-order.ts';
import { SLUG_PATTERN } from './field-rules.ts';
import { siteSchema, postSchema, caseStudySchema, legalSchema, type SiteSettings, type PostFrontMatter, type CaseStudyData, type LegalFrontMatter } from './schemas.ts';
import { collectionSchemas, pageSchemas, type CollectionContent, type PageContent } from './pages.ts';
import { categoryClashes, categorySlug, type CategoryUse } from './categories.ts';
import type { PreviewStatus } from './publication.ts';

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
  legal: Record<'privacy-policy' | 'terms-of-service', LegalPage>;
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

/** An address written in a content file (a YAML value or a markdown link), and where. */
export interface SourceLink { file: string; line?: number; path: string; href: string }

/** The addresses one markdown file's body links to. */
export interface BodyLinks { file: string; links: readonly DocumentLink[] }

/** Every address the content links to, with the file and line it is written at: its data's, then its bodies'. */
export function sourceLinks(site: Pick<Site, 'links' | 'bodyLinks'>): SourceLink[] {
  return [...site.links, ...site.bodyLinks.flatMap(({ file, links }) => links.map((l) => ({ file, line: l.line, path: 'body', href: l.href })))];
}

/** Where an article's file lives, as errors name it. */
export function postFile(slug: string): string {
  return `content/blog/${slug}.md`;
}

const LEGAL = ['privacy-policy', 'terms-of-service'] as const;

/**
 * Whether a markdown file (by its `rel`, as parse jobs name it) is an article: its body HTML is read
 * by its page's template alone, never by the load, so the build cache may keep it apart (see cache/build-cache.ts).
 */
export const isArticleFile = (rel: string): boolean => path.dirname(rel) === path.join('content', 'blog');

/** How many markdown files a load will parse (the articles and the legal pages), from one directory listing. */
export async function markdownFileCount(contentDir: string): Promise<number> {
  const names = await readdir(path.join(contentDir, 'blog')).catch(() => [] as string[]);
  return names.filter((n) => n.endsWith('.md')).length + LEGAL.length;
}

/** A hint naming a known image close to a misspelt one (same start of name), if there is one. */
function closest(value: string, known: string[]): string {
  const name = value.slice('/images/'.length);
  const shared = (k: string) => { const n = k.slice('/images/'.length); let i = 0; while (i < n.length && n[i] === name[i]) i++; return i; };
  const best = [...known].sort((a, b) => shared(b) - shared(a))[0];
  return best && shared(best) >= 4 ? `did you mean ${best}?` : 'add the file to content/images';
}

const [CONTENT, DOT_SEGMENT, EMPTY_SEGMENT] = [`content${path.sep}`, `${path.sep}.`, `${path.sep}${path.sep}`];

class Collector {
  errors: ContentError[] = [];
  links: SourceLink[] = [];
  bodyLinks: BodyLinks[] = [];
  /**
   * `sources`: what the build cache knows of the content (see `loadSite`); `imagesSet`: the set of images it is kept
   * against, a hash of their paths.
   */
  constructor(readonly root: string, readonly sources?: KnownSources, readonly imagesSet = '') {
    this.within = root + path.sep;
  }

  private rels = new Map<string, string>();
  /** The content folder's path with its separator, which a plain content file's path starts with. */
  private readonly within: string;
  /** A file's path as errors name it (content/…); asked three times or more per article, so worked out once. */
  rel(file: string): string {
    let rel = this.rels.get(file);
    if (rel === undefined) {
      // A file of the content folder (all of them, bar a test's) by its name alone: path.relative cost ten thousand articles 20 ms.
      const plain = file.startsWith(this.within) && !file.includes(DOT_SEGMENT) && !file.includes(EMPTY_SEGMENT);
      this.rels.set(file, (rel = plain ? CONTENT + file.slice(this.within.length) : path.join('content', path.relative(this.root, file))));
    }
    return rel;
  }

  /**
   * A file's bytes, left undecoded: a markdown file's key hashes them, and only a file the cache
   * does not hold is decoded, by the thread that parses it. Ten thousand articles read as text cost
   * the load a tenth of a second of decoding, and sixty megabytes of strings that every
   * young-generation collection copied. Read synchronously: a content file is small and usually in
   * the kernel's cache, and thousands of them read through promises (open, stat, read, close, each a
   * trip through the thread pool) took several times as long.
   */
  readBytes(file: string): Buffer | undefined {
    try { return readFileSync(file); } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      this.errors.push({ file: this.rel(file), path: '', message: code === 'ENOENT' ? 'is missing: this file is required' : `cannot be read (${code})` });
      return undefined;
    }
  }

  validate<S extends z.ZodType>(schema: S, parsed: ParsedYaml, file: string, images: Record<string, SiteImage>): z.infer<S> | undefined {
    if (parsed.errors.length) { this.errors.push(...parsed.errors); return undefined; }
    const result = schema.safeParse(parsed.data ?? {});
    if (!result.success) {
      for (const issue of result.error.issues) {
        this.errors.push({ file, line: parsed.lineOf(issue.path), path: pathToString(issue.path), ...issueToWords(issue, parsed.data) });
      }
      return undefined;
    }
    this.scan(result.data, [], file, parsed, images);
    return result.data;
  }

  /** Every /images/… path a content file names must be a file in content/images; other addresses are kept as links. */
  private scan(value: unknown, at: PropertyKey[], file: string, parsed: ParsedYaml, images: Record<string, SiteImage>) {
    if (typeof value === 'string' && value.startsWith('/images/')) {
      if (!images[value]) this.errors.push({ file, line: parsed.lineOf(at), path: pathToString(at), message: `names ${value}, which is not in content/images`, hint: closest(value, Object.keys(images)) });
    } else if (typeof value === 'string' && /^(\/(?!\/)|https?:\/\/)\S*$/.test(value)) {
      this.links.push({ file, line: parsed.lineOf(at), path: pathToString(at), href: value });
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) this.scan(v, [...at, Array.isArray(value) ? Number(k) : k], file, parsed, images);
    }
  }

  /** The addresses noted since there were `count`, without their file: as the build cache keeps them. */
  linksSince(count: number): CheckedFront['links'] {
    return this.links.slice(count).map(({ file: _file, ...link }) => link);
  }

  /** A YAML file checked by `schema`, unless the build cache holds it checked, from these very bytes and images; a valid one is kept there. */
  async yaml<S extends z.ZodType>(file: string, schema: S, images: Record<string, SiteImage>) {
    const bytes = this.readBytes(file);
    if (bytes === undefined) return undefined;
    const rel = this.rel(file);
    const key = this.sources && hashOf(rel, this.imagesSet, bytes);
    const checked = key === undefined ? undefined : this.sources!.checkedYaml(key);
    if (checked) {
      for (const link of checked.links) this.links.push({ file: rel, ...link });
      return checked.data as z.infer<S>;
    }
    const [errorsBefore, linksBefore] = [this.errors.length, this.links.length];
    const data = this.validate(schema, parseYaml(bytes.toString('utf8'), rel), rel, images);
    if (key !== undefined && data !== undefined && this.errors.length === errorsBefore) this.sources!.keepYaml(key, { data: data as object, links: this.linksSince(linksBefore) });
    return data;
  }

  /**
   * A parsed markdown file: front matter checked by `schema` (unless the build cache says it was,
   * from this very file: `checked`), the body's errors and links collected. A file found valid is
   * handed back to the cache (`remember`), with what its front matter added to the links.
   */
  markdown<S extends z.ZodType>(file: string, parsed: ParsedMarkdownFile, schema: S, images: Record<string, SiteImage>) {
    const rel = this.rel(file);
    // Parsed already (in a worker, or cached); the lines are looked up again only to report an error,
    // from the front matter's text, which a cache entry filed as checked no longer holds: the file is read again then.
    let lines: ParsedYaml | undefined;
    const lineOf = (at: readonly PropertyKey[]) => (lines ??= this.frontLines(file, parsed)).lineOf(at);
    const [errorsBefore, linksBefore] = [this.errors.length, this.links.length];
    let data: z.infer<S> | undefined;
    let digest: string | undefined;
    if (parsed.checked) {
      data = parsed.checked.data as z.infer<S>;
      digest = parsed.checked.digest;
      for (const link of parsed.checked.links) this.links.push({ file: rel, ...link });
    } else {
      data = this.validate(schema, { data: parsed.frontData, errors: parsed.frontErrors, lineOf }, rel, images);
      if (data !== undefined && this.errors.length === errorsBefore && !parsed.body.errors.length && parsed.remember) {
        digest = frontDigest(data as object);
        parsed.remember({ data: data as object, digest, links: this.linksSince(linksBefore) });
      }
    }
    this.errors.push(...parsed.body.errors);
    if (parsed.body.links.length) this.bodyLinks.push({ file: rel, links: parsed.body.links });
    return data === undefined ? undefined : { data, digest, body: parsed.body, lineOf };
  }

  /** A markdown file's front matter with its lines: from its parsed text, or else from the file. */
  private frontLines(file: string, parsed: ParsedMarkdownFile): ParsedYaml {
    const rel = this.rel(file);
    if (parsed.front !== undefined) return parseYaml(parsed.front, rel, parsed.frontLine);
    let text = '';
    try { text = readFileSync(file, 'utf8'); } catch { /* gone since: the error goes without its line */ }
    const { front, frontLine } = readFrontMatter(text, rel);
    return parseYaml(front, rel, frontLine);
  }

  async list(dir: string, ext: string): Promise<string[]> {
    const names = await readdir(path.join(this.root, dir)).catch(() => [] as string[]);
    return names.filter((n) => n.endsWith(ext)).sort().map((n) => path.join(this.root, dir, n));
  }
}

/** Parses markdown files, all at once so that a worker pool or a cache can serve them; results in the jobs' order. */
export type ParseMarkdown = (jobs: LoadedMarkdown[]) => Promise<ParsedMarkdownFile[]>;

const parseInline: ParseMarkdown = (jobs) => Promise.all(jobs.map((job) => parseMarkdownFile(parseJob(job))));

/** What a markdown file's key needs of its bytes, as the build cache keeps it (see cache/source-index.ts): their digest, and the images its text names of a set of images (`imagesSet`). */
export interface KnownSource { digest: string; imagesSet: string; images: string[] }

/**
 * What the build cache knows of the content the last load read: of each markdown file, by the file's stat, what
 * its key needs, so that a file unchanged since need not be read; of each YAML file, by its key (its
 * path, bytes and the set of images), its data as a load of this generator found it valid.
 */
export interface KnownSources {
  known(file: string, stat: Stats): KnownSource | undefined;
  note(file: string, stat: Stats, known: KnownSource, readAt?: number): void;
  checkedYaml(key: string): CheckedFront | undefined;
  keepYaml(key: string, checked: CheckedFront): void;
}

/**
 * A markdown file to parse, read, or known unchanged by what the collector's sources hold (its key then needs
 * only what they keep, while the site's images are the same set); undefined if it cannot be read.
 */
function markdownSource(c: Collector, file: string, forms: SiteSettings['assessmentForms'] | undefined, images: Record<string, SiteImage>): LoadedMarkdown | undefined {
  const { sources, imagesSet } = c;
  const rel = c.rel(file);
  const read = () => readFileSync(file);
  const stat = sources && statSync(file, { throwIfNoEntry: false });
  const known = stat && sources.known(file, stat);
  if (known && known.imagesSet === imagesSet) return { rel, forms, digest: known.digest, images: Object.fromEntries(known.images.map((name) => [name, images[name]!])), read };
  const readAt = Date.now();
  const source = c.readBytes(file);
  if (source === undefined) return undefined;
  const digest = digestOf(source);
  const named = imagesNamedIn(source, images);
  if (stat) sources!.note(file, stat, { digest, imagesSet, images: Object.keys(named) }, readAt);
  return { source, rel, forms, digest, images: named, read };
}

/**
 * Load content/ into a Site, or throw ContentErrors naming every bad file, field and line at once.
 * `sources`: what the build cache knows of the content the last load read (see KnownSources).
 */
export async function loadSite(root: string, parse: ParseMarkdown = parseInline, sources?: KnownSources): Promise<Site> {
  const { images, errors: imageErrors } = await loadImages(root);
  const c = new Collector(root, sources, sources ? hashOf(...Object.keys(images)) : '');
  c.errors.push(...imageErrors);
  const settings = await c.yaml(path.join(root, 'site.yaml'), siteSchema, images);

  // Every markdown file read (synchronously: see Collector.readBytes) or known unchanged, then parsed in
  // one batch, which the workers take while this thread reads the other YAML files (it needed only the
  // survey addresses of site.yaml). A file that cannot be read is reported after those, as it always was.
  const files = [...await c.list('blog', '.md'), ...LEGAL.map((slug) => path.join(root, 'pages', `${slug}.md`))];
  const errorsBefore = c.errors.length;
  const readable = files.flatMap((file) => {
    const job = markdownSource(c, file, settings?.assessmentForms, images);
    return job ? [{ file, job }] : [];
  });
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

  const unsorted: Post[] = [];
  const categoryUses: CategoryUse[] = [];
  for (const file of files.slice(0, files.length - LEGAL.length)) {
    const result = parsed.get(file);
    const doc = result && c.markdown(file, result, postSchema, images);
    if (!doc) continue;
    const post: Post = { ...doc.data, slug: path.basename(file, '.md'), html: doc.body.html, toc: doc.body.toc, bodyImages: doc.body.images };
    if (doc.digest !== undefined) noteFrontDigest(post, doc.digest);
    unsorted.push(post);
    // The line is looked up only for an error: finding it parses the front matter again, on this thread.
    (doc.data.categories ?? []).forEach((name, i) => categoryUses.push({ name, file: c.rel(file), get line() { return doc.lineOf(['categories', i]); }, path: `categories[${i}]` }));
  }
  // Checked across every article, drafts included: a clash would surface the day the draft goes live.
  c.errors.push(...categoryClashes(categoryUses));
  const posts = newestFirst(unsorted);

  const caseStudies: CaseStudy[] = [];
  for (const file of await c.list('case-studies', '.yaml')) {
    const data = await c.yaml(file, caseStudySchema, images);
    if (data) caseStudies.push({ ...data, slug: path.basename(file, '.yaml') });
  }
  caseStudies.sort((a, b) => a.order - b.order || a.slug.localeCompare(b.slug));

  const legal: Partial<Record<(typeof LEGAL)[number], LegalPage>> = {};
  for (const slug of LEGAL) {
    const file = path.join(root, 'pages', `${slug}.md`);
    const result = parsed.get(file);
    const doc = result && c.markdown(file, result, legalSchema, images);
    const html = doc && settings ? fillSettings(doc.body.html, settings, c.rel(file), slug === 'privacy-policy' ? [LEAD_RETENTION_PLACEHOLDER] : [], c.errors) : doc?.body.html;
    if (doc && html !== undefined) legal[slug] = { ...doc.data, slug, html, toc: doc.body.toc, bodyImages: doc.body.images };
  }

  for (const [dir, slugs] of [['blog', posts.map((p) => p.slug)], ['case-studies', caseStudies.map((s) => s.slug)]] as const) {
    for (const s of slugs) if (!SLUG_PATTERN.test(s)) c.errors.push({ file: `content/${dir}/${s}`, path: '', message: 'has a file name that is not a URL slug', hint: 'use lower-case letters, digits and hyphens' });
  }

  if (c.errors.length || !settings) throw new ContentErrors(c.errors);
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
