import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { ContentError } from './errors.ts';

export interface SiteImage { src: string; width: number; height: number; bytes: number; file: string }

export const MAX_IMAGE_BYTES = 200 * 1024;

function svgSize(svg: string): { width: number; height: number } | undefined {
  const tag = /<svg\b[^>]*>/i.exec(svg)?.[0] ?? '';
  const attr = (name: string) => Number(new RegExp(`\\s${name}="([\\d.]+)(px)?"`).exec(tag)?.[1]);
  const [w, h] = [attr('width'), attr('height')];
  if (w > 0 && h > 0) return { width: w, height: h };
  const box = /viewBox="[\d.\s-]*?([\d.]+)[\s,]+([\d.]+)"/.exec(tag);
  return box ? { width: Number(box[1]), height: Number(box[2]) } : undefined;
}

function rasterSize(buf: Buffer): { width: number; height: number } | undefined {
  if (buf.subarray(1, 4).toString() === 'PNG') return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
  if (buf.subarray(0, 4).toString() === 'RIFF' && buf.subarray(12, 16).toString() === 'VP8X') {
    return { width: buf.readUIntLE(24, 3) + 1, height: buf.readUIntLE(27, 3) + 1 };
  }
  if (buf[0] === 0xff && buf[1] === 0xd8) {
    for (let i = 2; i < buf.length - 9; ) {
      const marker = buf[i + 1] ?? 0;
      if (marker >= 0xc0 && marker <= 0xc3) return { height: buf.readUInt16BE(i + 5), width: buf.readUInt16BE(i + 7) };
      i += 2 + buf.readUInt16BE(i + 2);
    }
  }
  return undefined;
}

/** Every file in content/images, keyed by the path authors write (/images/x.svg), with a hashed public name. */
export async function loadImages(root: string): Promise<{ images: Record<string, SiteImage>; errors: ContentError[] }> {
  const dir = path.join(root, 'images');
  const images: Record<string, SiteImage> = {};
  const errors: ContentError[] = [];
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names.sort()) {
    const file = path.join('content/images', name);
    const buf = await readFile(path.join(dir, name));
    const size = name.endsWith('.svg') ? svgSize(buf.toString('utf8')) : rasterSize(buf);
    if (!size) { errors.push({ file, path: '', message: 'has no readable width and height', hint: 'give the <svg> a viewBox or width and height' }); continue; }
    if (buf.length > MAX_IMAGE_BYTES) errors.push({ file, path: '', message: `is ${Math.round(buf.length / 1024)} KB, over the ${MAX_IMAGE_BYTES / 1024} KB limit for images` });
    const hash = createHash('sha256').update(buf).digest('hex').slice(0, 10);
    const ext = path.extname(name);
    images[`/images/${name}`] = { src: `/assets/images/${path.basename(name, ext)}-${hash}${ext}`, ...size, bytes: buf.length, file };
  }
  return { images, errors };
}
