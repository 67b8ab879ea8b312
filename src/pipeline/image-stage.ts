// The `images` stage: the raster variants the pages use, made with src/images/'s plans and encoder,
// and a source that cannot be decoded reported as a content error. A stage of the pipeline, not in
// src/images/, which src/content/ builds on.
import { access, mkdir, readFile, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Site } from '../content/load.ts';
import type { SiteImage } from '../images/site-image.ts';
import { reason } from '../content/images.ts';
import { ContentErrors, type ContentError } from '../content/errors.ts';
import { encode } from '../images/encode.ts';
import { mapLimit } from '../concurrency.ts';
import { EXTENSION_OF } from '../images/formats.ts';
import { shareFile, type Variant } from '../images/plan.ts';
import { variantsOf, type ImageUse } from '../images/picture.ts';
import type { WrittenPage } from './render-stage.ts';
import type { ImageStats } from '../measure/summary.ts';
import { writeBeside } from '../temp-file.ts';

export interface BuiltImages {
  /** Public URL → the file holding it (a cached variant, or an SVG source), to copy into dist/. */
  files: Map<string, string>;
  /** Public URL → bytes, for the budgets. */
  bytes: Map<string, number>;
  stats: ImageStats;
}

interface Job { key: string; image: SiteImage; variant: Variant }

/** The jobs the pages' uses call for, one per file, plus each raster's single share file (og:image, JSON-LD). */
function jobsFor(images: Record<string, SiteImage>, uses: ImageUse[]): Job[] {
  const jobs = new Map<string, Job>();
  const add = (key: string, image: SiteImage, v: Variant) => { if (!jobs.has(v.url)) jobs.set(v.url, { key, image, variant: v }); };
  for (const [key, image] of Object.entries(images)) {
    if (image.source.format !== 'svg') add(key, image, shareFile(image));
  }
  for (const use of new Map(uses.map((u) => [`${u.src} ${u.slot}`, u])).values()) {
    const image = images[use.src];
    if (image) for (const v of variantsOf(image, use.slot)) add(use.src, image, v);
  }
  return [...jobs.values()];
}

const exists = (file: string) => access(file).then(() => true, () => false);

/** `images`: the variants of every image the pages use. Pages alike share their images' list (see render/stored-page.ts): each list is read once. */
export function imagesStage(site: Site, pages: WrittenPage[], contentDir: string, cacheDir: string): Promise<BuiltImages> {
  return buildImages({ images: site.images, uses: [...new Set(pages.map((p) => p.images))].flat(), contentDir, cacheDir });
}

/**
 * The image stage: every variant the pages use, from the cache when its key (source content,
 * format, width, encoder settings) is there, else encoded and cached. A rebuild with unchanged
 * images reads the cache and does no image work. A source that cannot be decoded is a content
 * error naming the file.
 */
export async function buildImages(opts: { images: Record<string, SiteImage>; uses: ImageUse[]; contentDir: string; cacheDir: string }): Promise<BuiltImages> {
  const dir = path.join(opts.cacheDir, 'images');
  await mkdir(dir, { recursive: true });
  const jobs = jobsFor(opts.images, opts.uses);
  const files = new Map<string, string>();
  const bytes = new Map<string, number>();
  const cached = (j: Job) => path.join(dir, j.variant.key + EXTENSION_OF[j.variant.format]);
  const missing: Job[] = [];
  for (const j of jobs) {
    if (await exists(cached(j))) files.set(j.variant.url, cached(j));
    else missing.push(j);
  }

  // Each source is read once and dropped after its last variant; encodes run one per core.
  const sources = new Map<string, Promise<Buffer>>();
  const left = new Map<string, number>();
  for (const j of missing) left.set(j.key, (left.get(j.key) ?? 0) + 1);
  const errors = new Map<string, ContentError>();
  await mapLimit(missing, os.availableParallelism(), async (j) => {
    try {
      if (errors.has(j.key)) return;
      if (!sources.has(j.key)) sources.set(j.key, readFile(path.join(opts.contentDir, 'images', path.basename(j.key))));
      const input = await sources.get(j.key)!;
      const out = await encode(input, j.variant).catch((error: unknown) => {
        errors.set(j.key, { file: j.image.file, path: '', message: `cannot be decoded (${reason(error)})`, hint: 'the file may be damaged or cut short; export it again' });
      });
      if (!out) return;
      // Written under a temporary name, then renamed: a build stopped half-way leaves no half file.
      await writeBeside(cached(j), out);
      files.set(j.variant.url, cached(j));
    } finally {
      left.set(j.key, left.get(j.key)! - 1);
      if (!left.get(j.key)) sources.delete(j.key);
    }
  });
  if (errors.size) throw new ContentErrors([...errors.values()]);

  for (const [url, file] of files) bytes.set(url, (await stat(file)).size);
  const variantBytes = [...bytes.values()].reduce((a, b) => a + b, 0);
  // SVGs go out as they are.
  for (const [key, image] of Object.entries(opts.images)) {
    if (image.source.format === 'svg') { files.set(image.src, path.join(opts.contentDir, 'images', path.basename(key))); bytes.set(image.src, image.bytes); }
  }
  const rasters = Object.entries(opts.images).filter(([, i]) => i.source.format !== 'svg');
  const largestAvif = (key: string) => Math.max(0, ...jobs.filter((j) => j.key === key && j.variant.format === 'avif').map((j) => bytes.get(j.variant.url)!));
  return {
    files,
    bytes,
    stats: {
      sources: rasters.length,
      sourceBytes: rasters.reduce((n, [, i]) => n + i.bytes, 0),
      processed: missing.length,
      reused: jobs.length - missing.length,
      variantBytes,
      saved: rasters.reduce((n, [key, i]) => n + Math.max(0, i.bytes - (largestAvif(key) || bytes.get(i.src)!)), 0),
      svgs: Object.values(opts.images).length - rasters.length,
    },
  };
}
