import { createHash } from 'node:crypto';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { ContentError } from './errors.ts';
import { EXTENSIONS, FORMAT_NAMES, sniff, type SourceFormat } from '../images/formats.ts';
import { shareVariant } from '../images/plan.ts';

/** An image of content/images, keyed by the path authors write (/images/x.jpg). */
export interface SiteImage {
  /** The one file served where a <picture> cannot be (og:image, JSON-LD, the favicon): an SVG as it is, a raster source as its fallback format at most 1200 px wide. */
  src: string;
  width: number;
  height: number;
  /** content/images/x.jpg, for errors. */
  file: string;
  bytes: number;
  /** The source as its bytes say: format, size after EXIF orientation, alpha, SHA-256 of the content. */
  source: { format: SourceFormat; width: number; height: number; alpha: boolean; hash: string };
}

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

/** One file: within the limits, its content what its name says, and readable. */
async function check(dir: string, name: string, file: string): Promise<Checked> {
  const full = path.join(dir, name);
  const { size } = await stat(full);
  if (size > MAX_IMAGE_BYTES) return { error: { message: `is ${mb(size)}, over the ${MAX_IMAGE_BYTES / 1024 / 1024} MB limit for images`, hint: `export it smaller; ${px(MAX_IMAGE_SIDE)} px a side is the most the site takes` } };
  const expected = EXTENSIONS[path.extname(name).toLowerCase()];
  if (!expected) return { error: { message: `has a type the site does not take (${path.extname(name) || 'no extension'})`, hint: 'use JPEG, PNG, WebP, AVIF or SVG' } };
  const buf = await readFile(full);
  const actual = sniff(buf);
  if (!actual) return { error: { message: `is not a ${FORMAT_NAMES[expected]} image: its content is not any image format the site takes`, hint: 'the file may be damaged or mis-named; export it again' } };
  if (actual !== expected) {
    const known = actual in EXTENSIONS_BY_FORMAT;
    return { error: { message: `is a ${FORMAT_NAMES[actual]} image, but its name ends in ${path.extname(name)}`, hint: known ? `rename it ${path.basename(name, path.extname(name))}${EXTENSIONS_BY_FORMAT[actual as SourceFormat]}` : 'use JPEG, PNG, WebP, AVIF or SVG' } };
  }
  const hash = createHash('sha256').update(buf).digest('hex');
  let size2: { width: number; height: number; alpha: boolean } | undefined;
  if (actual === 'svg') {
    const s = svgSize(buf.toString('utf8'));
    if (!s) return { error: { message: 'has no readable width and height', hint: 'give the <svg> a viewBox or width and height' } };
    size2 = { ...s, alpha: true };
  } else {
    try {
      // The header only: enough for the size, the orientation and a file cut short before its pixels.
      const meta = await sharp(buf).metadata();
      size2 = { width: meta.autoOrient.width, height: meta.autoOrient.height, alpha: meta.hasAlpha };
    } catch (error) {
      return { error: { message: `cannot be decoded (${reason(error)})`, hint: 'the file may be damaged or cut short; export it again' } };
    }
    if (size2.width > MAX_IMAGE_SIDE || size2.height > MAX_IMAGE_SIDE) {
      return { error: { message: `is ${px(size2.width)} × ${px(size2.height)} px, over the limit of ${px(MAX_IMAGE_SIDE)} px a side`, hint: 'scale it down; the widest file the site serves is 1,920 px' } };
    }
  }
  return { image: { file, bytes: size, source: { format: actual, width: size2.width, height: size2.height, alpha: size2.alpha, hash } } };
}

const EXTENSIONS_BY_FORMAT: Record<SourceFormat, string> = { jpeg: '.jpg', png: '.png', webp: '.webp', avif: '.avif', svg: '.svg' };

/** A decoder's message in one line, without libvips' trailing newline. */
export function reason(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).trim().split('\n')[0]!;
}

/** Every file in content/images, keyed by the path authors write (/images/x.jpg), each checked and measured. */
export async function loadImages(root: string): Promise<{ images: Record<string, SiteImage>; errors: ContentError[] }> {
  const dir = path.join(root, 'images');
  const images: Record<string, SiteImage> = {};
  const errors: ContentError[] = [];
  const names = (await readdir(dir).catch(() => [] as string[])).filter((n) => !n.startsWith('.')).sort();
  const checked = await Promise.all(names.map((name) => check(dir, name, path.join('content/images', name))));
  names.forEach((name, i) => {
    const result = checked[i]!;
    const file = path.join('content/images', name);
    if ('error' in result) { errors.push({ file, path: '', ...result.error }); return; }
    const key = `/images/${name}`;
    images[key] = { ...shareVariant(key, result.image), ...result.image };
  });
  return { images, errors };
}
