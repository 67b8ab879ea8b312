import { createHash } from 'node:crypto';
import { readFile, readdir, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';
import type { ContentError } from './errors.ts';
import { EXTENSIONS, FORMAT_NAMES, SOURCE_EXTENSION, sniff, type SourceFormat } from '../images/formats.ts';
import type { SiteImage } from '../images/site-image.ts';
import { shareVariant } from '../images/plan.ts';
import { mapLimit } from '../concurrency.ts';
import { rasterHeader } from '../images/raster-header.ts';

export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
export const MAX_IMAGE_SIDE = 8000;

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
const px = (n: number) => n.toLocaleString('en-GB');

function svgSize(svg: string): { width: number; height: number } | undefined {
  const tag = /<svg\b[^>]*>/i.exec(svg)?.[0] ?? '';
  const attr = (name: string) => Number(new RegExp(`\\s${name}="([\\d.]+)(px)?"`).exec(tag)?.[1]);
  const [w, h] = [attr('width'), attr('height')];
  if (w > 0 && h > 0) return { width: w, height: h };
  const box = /viewBox="[\d.\s-]*?([\d.]+)[\s,]+([\d.]+)"/.exec(tag);
  return box ? { width: Number(box[1]), height: Number(box[2]) } : undefined;
}

type Checked = { image: Omit<SiteImage, 'src' | 'width' | 'height'> } | { error: Omit<ContentError, 'file' | 'path'> };
type Measured = { width: number; height: number; alpha: boolean } | { error: Omit<ContentError, 'file' | 'path'> };

/** Width and height upright (after EXIF orientation), and whether it has transparency. */
async function measure(buf: Buffer, format: SourceFormat): Promise<Measured> {
  if (format === 'svg') {
    const size = svgSize(buf.toString('utf8'));
    return size ? { ...size, alpha: true } : { error: { message: 'has no readable width and height', hint: 'give the <svg> a viewBox or width and height' } };
  }
  // sharp (libvips) is loaded only for a raster image whose header is not read here: it costs the CLI's start 150 ms.
  const header = rasterHeader(buf, format);
  if (header) return header;
  const { default: sharp } = await import('sharp');
  try {
    // The header only: enough for the size and the orientation, and for a file damaged at its start.
    const meta = await sharp(buf).metadata();
    return { width: meta.autoOrient.width, height: meta.autoOrient.height, alpha: meta.hasAlpha };
  } catch (error) {
    return { error: { message: `cannot be decoded (${reason(error)})`, hint: 'the file may be damaged or cut short; export it again' } };
  }
}

/** What the build cache knows of the images the last load checked (cache/source-index.ts): by each file's stat, what its check found. */
export interface KnownImages {
  checkedImage?(file: string, stat: Stats): unknown;
  keepImage?(file: string, stat: Stats, checked: unknown, readAt: number): void;
}

type Image = Extract<Checked, { image: unknown }>['image'];
const isImage = (v: unknown): v is Image => {
  const i = v as Image;
  return !!i && typeof i.file === 'string' && typeof i.bytes === 'number' && !!i.source && typeof i.source.hash === 'string' && typeof i.source.width === 'number' && typeof i.source.height === 'number';
};

/**
 * One file: within the limits, its content what its name says, and readable. A file whose stat is
 * the one it had when this generator last found it valid is taken as found then (`sources`): not
 * read, and sharp (150 ms to load) not loaded for it.
 */
async function check(dir: string, name: string, file: string, sources: KnownImages | undefined): Promise<Checked> {
  const full = path.join(dir, name);
  const readAt = Date.now();
  const stats = await stat(full);
  const known = sources?.checkedImage?.(full, stats);
  if (isImage(known) && known.file === file) return { image: known };
  const checked = await checkAfresh(full, name, file, stats.size);
  if ('image' in checked) sources?.keepImage?.(full, stats, checked.image, readAt);
  return checked;
}

async function checkAfresh(full: string, name: string, file: string, size: number): Promise<Checked> {
  if (size > MAX_IMAGE_BYTES) return { error: { message: `is ${mb(size)}, over the ${MAX_IMAGE_BYTES / 1024 / 1024} MB limit for images`, hint: `export it smaller; ${px(MAX_IMAGE_SIDE)} px a side is the most the site takes` } };
  const ext = path.extname(name);
  const expected = EXTENSIONS[ext.toLowerCase()];
  if (!expected) return { error: { message: `has a type the site does not take (${ext || 'no extension'})`, hint: 'use JPEG, PNG, WebP, AVIF or SVG' } };
  const buf = await readFile(full);
  const actual = sniff(buf);
  if (!actual) return { error: { message: `is not a ${FORMAT_NAMES[expected]} image: its content is not any image format the site takes`, hint: 'the file may be damaged or mis-named; export it again' } };
  if (actual !== expected) {
    const rename = actual in SOURCE_EXTENSION ? `rename it ${path.basename(name, ext)}${SOURCE_EXTENSION[actual as SourceFormat]}` : 'use JPEG, PNG, WebP, AVIF or SVG';
    return { error: { message: `is a ${FORMAT_NAMES[actual]} image, but its name ends in ${ext}`, hint: rename } };
  }
  const measured = await measure(buf, actual);
  if ('error' in measured) return measured;
  if (measured.width > MAX_IMAGE_SIDE || measured.height > MAX_IMAGE_SIDE) {
    return { error: { message: `is ${px(measured.width)} × ${px(measured.height)} px, over the limit of ${px(MAX_IMAGE_SIDE)} px a side`, hint: 'scale it down; the widest file the site serves is 1,920 px' } };
  }
  const hash = createHash('sha256').update(buf).digest('hex');
  return { image: { file, bytes: size, source: { format: actual, ...measured, hash } } };
}

/** A decoder's message in one line, without libvips' trailing newline. */
export function reason(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).trim().split('\n')[0]!;
}

/** Every file in content/images, keyed by the path authors write (/images/x.jpg), each checked and measured. */
export async function loadImages(root: string, sources?: KnownImages): Promise<{ images: Record<string, SiteImage>; errors: ContentError[] }> {
  const dir = path.join(root, 'images');
  const images: Record<string, SiteImage> = {};
  const errors: ContentError[] = [];
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => !n.startsWith('.')).sort();
  // A few at a time: each may be 20 MB in memory.
  const checked = await mapLimit(names, 4, (name) => check(dir, name, path.join('content/images', name), sources));
  names.forEach((name, i) => {
    const result = checked[i]!;
    const file = path.join('content/images', name);
    if ('error' in result) { errors.push({ file, path: '', ...result.error }); return; }
    const key = `/images/${name}`;
    images[key] = { ...shareVariant(key, result.image), ...result.image };
  });
  return { images, errors };
}
