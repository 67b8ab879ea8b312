/**
 * The collector a content load works through: it reads the content's files (names as errors give
 * them, bytes, a folder's files), checks each file's data against its schema, and gathers the errors
 * and the addresses the content links to. A file the build cache holds as checked (KnownSources) is
 * taken from it rather than checked again.
 */
import { readFileSync, statSync, type Stats } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { issueToWords, pathToString, type ContentError } from './errors.ts';
import { parseYaml, type ParsedYaml } from './yaml.ts';
import type { DocumentLink } from './markdown.ts';
import { jobOfBytes, type CheckedFront, type LoadedMarkdown, type ParsedMarkdownFile } from './markdown-job.ts';
import { readFrontMatter } from './front-matter.ts';
import { frontDigest } from './front-digest.ts';
import { hashOf } from '../hash.ts';
import type { KnownImages } from './images.ts';
import type { SiteImage } from '../images/site-image.ts';
import type { SiteSettings } from './schemas.ts';

/** An address written in a content file (a YAML value or a markdown link), and where. */
export interface SourceLink { file: string; line?: number; path: string; href: string }

/** The addresses one markdown file's body links to. */
export interface BodyLinks { file: string; links: readonly DocumentLink[] }

/**
 * What a markdown file's key needs of its bytes, as the build cache keeps it (see cache/source-index.ts): their digest, and the images its text names of a set of images (`imagesSet`);
 * and its front hash (content/front-hash.ts), which the build's record keeps of each article for a quick rebuild.
 */
export interface KnownSource { digest: string; imagesSet: string; images: string[]; front: string }

/**
 * What the build cache knows of the content the last load read: of each markdown file, by the file's stat, what
 * its key needs, so that a file unchanged since need not be read; of each YAML file, by its key (its
 * path, bytes and the set of images), its data as a load of this generator found it valid.
 */
export interface KnownSources extends KnownImages {
  known(file: string, stat: Stats): KnownSource | undefined;
  note(file: string, stat: Stats, known: KnownSource, readAt?: number): void;
  checkedYaml(key: string): CheckedFront | undefined;
  keepYaml(key: string, checked: CheckedFront): void;
}

/** A hint naming a known image close to a misspelt one (same start of name), if there is one. */
function closest(value: string, known: string[]): string {
  const name = value.slice('/images/'.length);
  const shared = (k: string) => { const n = k.slice('/images/'.length); let i = 0; while (i < n.length && n[i] === name[i]) i++; return i; };
  const best = [...known].sort((a, b) => shared(b) - shared(a))[0];
  return best && shared(best) >= 4 ? `did you mean ${best}?` : 'add the file to content/images';
}

const [CONTENT, DOT_SEGMENT, EMPTY_SEGMENT] = [`content${path.sep}`, `${path.sep}.`, `${path.sep}${path.sep}`];

export class Collector {
  // What the load collects: the content's errors, and the addresses it links to.
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

  // Files: their names as errors give them, their bytes, a folder's files.

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

  /** The files of `dir` (under the content folder) whose names end in `ext`, sorted. */
  async list(dir: string, ext: string): Promise<string[]> {
    const names = await readdir(path.join(this.root, dir)).catch(() => [] as string[]);
    return names.filter((n) => n.endsWith(ext)).sort().map((n) => path.join(this.root, dir, n));
  }

  // Checking: a file's data against its schema, the images and addresses it names.

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

  // The two kinds of content file, each checked once while the build cache holds it checked.

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
}

/**
 * A markdown file to parse, read, or known unchanged by what the collector's sources hold (its key then needs
 * only what they keep, while the site's images are the same set); undefined if it cannot be read.
 */
export function markdownSource(c: Collector, file: string, forms: SiteSettings['assessmentForms'] | undefined, images: Record<string, SiteImage>): LoadedMarkdown | undefined {
  const { sources, imagesSet } = c;
  const rel = c.rel(file);
  const read = () => readFileSync(file);
  const stat = sources && statSync(file, { throwIfNoEntry: false });
  const known = stat && sources.known(file, stat);
  if (known && known.imagesSet === imagesSet) return { rel, forms, digest: known.digest, front: known.front, images: Object.fromEntries(known.images.map((name) => [name, images[name]!])), read };
  const readAt = Date.now();
  const source = c.readBytes(file);
  if (source === undefined) return undefined;
  const job = jobOfBytes(source, rel, forms, images);
  if (stat) sources!.note(file, stat, { digest: job.digest, imagesSet, images: Object.keys(job.images), front: job.front }, readAt);
  return { ...job, read };
}
