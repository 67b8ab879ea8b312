import path from 'node:path';
import { readFileSync, type Stats } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { CACHE_FORMAT } from './store.ts';
import { CACHE_DIR } from '../output/layout.ts';
import type { KnownSource, KnownSources } from '../content/load.ts';
import { isCheckedFront, type CheckedFront } from '../content/markdown-job.ts';
import { generatorCode } from '../generator-code.ts';
import { tempFileFor } from '../temp-file.ts';

/** A file as a stat sees it: inode, size, modification and change times. Any write changes the change time. */
type Signature = [ino: number, size: number, mtimeMs: number, ctimeMs: number];
type Entry = [...Signature, digest: string, imagesSet: string, images: string[], front: string];
type ImageEntry = [...Signature, checked: unknown];

/** A file modified this recently before it was read is not known by its stat next time: a write within the file system's clock tick would not change it. */
const SETTLED_MS = 2_000;

const FILE = 'sources.json';

/**
 * What the last build read of the content (.site/cache/sources.json).
 *
 * Of each YAML file, its data as the schema returned it, by the file's path, bytes and the site's
 * set of images, while the generator is the same (its code holds the schemas and the YAML parser):
 * parsing twenty YAML files with the package that gives lines, and checking them, cost every build
 * a sixth of a second.
 *
 * Of each markdown file, by the file's stat, what its cache key needs of its bytes: a rebuild of a
 * large blog need not read and hash ten thousand unchanged articles (a third of a second of the
 * main thread) to find their keys. As git's index does, a file is taken as unchanged only while its
 * inode, size, modification and change time are all the last build's, and only if it had not been
 * modified for two seconds when it was read, so that a write in the same tick of the file system's
 * clock cannot go unseen. Anything else is read: a missing or unreadable index costs time, never a
 * stale page.
 *
 * Of each image of content/images found valid, by the same stat and generator, what its check found
 * (format, size, hash): a rebuild reads no image and loads no sharp for them.
 */
export class SourceIndex implements KnownSources {
  private readonly file: string;
  /** The last build's, read when first asked for: a quick rebuild, which loads one article, never asks (3 MB at 10,000 articles). */
  private lastRead: { files: Map<string, Entry>; yaml: Map<string, CheckedFront>; images: Map<string, ImageEntry> } | undefined;
  private readonly now = new Map<string, Entry>();
  private readonly nowYaml = new Map<string, CheckedFront>();
  private readonly nowImages = new Map<string, ImageEntry>();
  /** Nothing read and nothing noted by a build that keeps what it did not see: the file stays as it is. */
  private untouched = false;

  private constructor(root: string) {
    this.file = path.join(root, CACHE_DIR, FILE);
  }

  static open(root: string): SourceIndex {
    return new SourceIndex(root);
  }

  /**
   * The last build's entries: each markdown file's; the YAML files found valid, by key, as the
   * generator that checked them (`generatorCode`) left them; the images of content/images found
   * valid, by path, with their stat then and what the check found.
   */
  private get last() { return (this.lastRead ??= this.read()).files; }
  private get lastYaml() { return (this.lastRead ??= this.read()).yaml; }
  private get lastImages() { return (this.lastRead ??= this.read()).images; }

  private read(): NonNullable<SourceIndex['lastRead']> {
    const read = { files: new Map<string, Entry>(), yaml: new Map<string, CheckedFront>(), images: new Map<string, ImageEntry>() };
    try {
      const saved = JSON.parse(readFileSync(this.file, 'utf8')) as { format?: unknown; files?: unknown; yaml?: { by?: unknown; checked?: unknown }; images?: unknown };
      if (saved.format !== CACHE_FORMAT) return read;
      if (saved.files && typeof saved.files === 'object') read.files = new Map(Object.entries(saved.files as Record<string, Entry>));
      // Checked by another generator, whose schemas may differ: checked again.
      if (saved.yaml?.by === generatorCode() && saved.yaml.checked && typeof saved.yaml.checked === 'object') read.yaml = new Map(Object.entries(saved.yaml.checked as Record<string, CheckedFront>));
      // The images' checks are the generator's too (the same `by`).
      if (saved.yaml?.by === generatorCode() && saved.images && typeof saved.images === 'object') read.images = new Map(Object.entries(saved.images as Record<string, ImageEntry>));
    } catch { /* none yet, or unreadable: every file is read */ }
    return read;
  }

  /** What the last build read of `file`, if its stat is still what it was then. */
  known(file: string, stat: Stats): KnownSource | undefined {
    const entry = this.last.get(file);
    // An entry of an older generator (without the front hash) is not known: the file is read again.
    if (!Array.isArray(entry) || entry.length !== 8) return undefined;
    const [ino, size, mtimeMs, ctimeMs, digest, imagesSet, images, front] = entry;
    if (ino !== stat.ino || size !== stat.size || mtimeMs !== stat.mtimeMs || ctimeMs !== stat.ctimeMs) return undefined;
    if (typeof digest !== 'string' || typeof imagesSet !== 'string' || !Array.isArray(images) || typeof front !== 'string') return undefined;
    this.now.set(file, entry);
    return { digest, imagesSet, images, front };
  }

  /** A file as this build read it, under its stat taken before the read; not noted if it had been modified within the last two seconds. */
  note(file: string, stat: Stats, known: KnownSource, readAt = Date.now()): void {
    // As git judges a racy entry: by the modification time (a write sets it to the clock's tick, whatever it was).
    if (stat.mtimeMs > readAt - SETTLED_MS) return;
    this.now.set(file, [stat.ino, stat.size, stat.mtimeMs, stat.ctimeMs, known.digest, known.imagesSet, known.images, known.front]);
  }

  /** A YAML file's data and addresses, as a load of this generator found it valid from the same key. */
  checkedYaml(key: string): CheckedFront | undefined {
    const checked = this.lastYaml.get(key);
    if (!isCheckedFront(checked)) return undefined;
    this.nowYaml.set(key, checked);
    return checked;
  }

  keepYaml(key: string, checked: CheckedFront): void {
    this.nowYaml.set(key, checked);
  }

  /**
   * What a load of this generator found of an image, while the file's inode, size and modification
   * time are the ones it had then. Not its change time: builds hard-link images into the output, and
   * each link made or removed moves it (as git with core.trustctime=false).
   */
  checkedImage(file: string, stat: Stats): unknown {
    const entry = this.lastImages.get(file);
    if (!Array.isArray(entry) || entry.length !== 5) return undefined;
    const [ino, size, mtimeMs, , checked] = entry;
    if (ino !== stat.ino || size !== stat.size || mtimeMs !== stat.mtimeMs) return undefined;
    this.nowImages.set(file, entry);
    return checked;
  }

  /** An image found valid, under its stat taken before it was read; not kept if it had been modified within the last two seconds. */
  keepImage(file: string, stat: Stats, checked: unknown, readAt = Date.now()): void {
    if (stat.mtimeMs > readAt - SETTLED_MS) return;
    this.nowImages.set(file, [stat.ino, stat.size, stat.mtimeMs, stat.ctimeMs, checked]);
  }

  /** A quick rebuild read a few files: the rest are kept as the last build knew them. */
  keepUnseen(): void {
    if (!this.lastRead && !this.now.size && !this.nowYaml.size && !this.nowImages.size) { this.untouched = true; return; }
    for (const [file, entry] of this.last) if (!this.now.has(file)) this.now.set(file, entry);
    for (const [key, checked] of this.lastYaml) if (!this.nowYaml.has(key)) this.nowYaml.set(key, checked);
    for (const [file, entry] of this.lastImages) if (!this.nowImages.has(file)) this.nowImages.set(file, entry);
  }

  /** Written whole, beside and renamed over, with the files this build read or knew; not when nothing changed. */
  async save(): Promise<void> {
    if (this.untouched) return;
    const same = <T>(now: Map<string, T>, last: Map<string, T>) => now.size === last.size && [...now].every(([key, entry]) => last.get(key) === entry);
    if (same(this.now, this.last) && same(this.nowYaml, this.lastYaml) && same(this.nowImages, this.lastImages)) return;
    await mkdir(path.dirname(this.file), { recursive: true });
    const tmp = tempFileFor(this.file);
    await writeFile(tmp, JSON.stringify({ format: CACHE_FORMAT, files: Object.fromEntries(this.now), yaml: { by: generatorCode(), checked: Object.fromEntries(this.nowYaml) }, images: Object.fromEntries(this.nowImages) }));
    await rename(tmp, this.file).catch(() => rm(tmp, { force: true }));
  }
}
