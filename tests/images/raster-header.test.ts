// A PNG's or JPEG's size and transparency read from its header without sharp
// (src/images/raster-header.ts), held to what sharp itself reports of the same files, and a load of
// content whose raster images are all PNG or JPEG that never loads sharp.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import sharp, { type Metadata } from 'sharp';
import { rasterHeader } from '../../src/images/raster-header.ts';
import { sniff } from '../../src/images/formats.ts';
import { orientedJpeg } from './fixtures.ts';

const pixels = (width: number, height: number, channels: 1 | 2 | 3 | 4) => {
  const raw = Buffer.alloc(width * height * channels);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 37) % 251;
  return sharp(raw, { raw: { width, height, channels } });
};

/** Sources as authors export them: each PNG colour type, palettes with and without transparency, JPEGs in every orientation. */
async function sources(): Promise<Array<[string, Buffer]>> {
  const files: Array<[string, Buffer]> = [
    ['grey PNG', await pixels(33, 17, 1).png().toBuffer()],
    ['grey and alpha PNG', await pixels(33, 17, 2).png().toBuffer()],
    ['RGB PNG', await pixels(64, 48, 3).png().toBuffer()],
    ['RGBA PNG', await pixels(64, 48, 4).png().toBuffer()],
    ['palette PNG', await pixels(40, 30, 3).png({ palette: true }).toBuffer()],
    ['palette PNG with transparency', await pixels(40, 30, 4).png({ palette: true }).toBuffer()],
    ['16-bit PNG', await pixels(20, 10, 3).toColourspace('rgb16').png().toBuffer()],
    ['baseline JPEG', await pixels(640, 480, 3).jpeg().toBuffer()],
    ['progressive JPEG', await pixels(300, 200, 3).jpeg({ progressive: true }).toBuffer()],
    ['grey JPEG', await pixels(120, 90, 1).jpeg().toBuffer()],
    ["a phone's portrait JPEG, EXIF with GPS", await orientedJpeg()],
  ];
  for (let orientation = 1; orientation <= 8; orientation++) {
    files.push([`JPEG, orientation ${orientation}`, await pixels(50, 20, 3).withMetadata({ orientation }).jpeg().toBuffer()]);
  }
  return files;
}

describe("a raster image's header read without sharp", () => {
  it("gives each PNG's and JPEG's size upright and its transparency exactly as sharp reports them", async () => {
    for (const [name, buf] of await sources()) {
      const meta = await sharp(buf).metadata();
      expect(rasterHeader(buf, sniff(buf)!), name).toEqual({ width: meta.autoOrient.width, height: meta.autoOrient.height, alpha: meta.hasAlpha });
    }
  });

  it('leaves to sharp every header it does not find whole, and where it reads one, sharp reads the same: cut short, a damaged IHDR, WebP and AVIF', async () => {
    /** undefined, or what sharp reads too (sharp refusing a file this reader took would let a bad file through). */
    const asSharp = async (buf: Buffer, format: string, name: string) => {
      const header = rasterHeader(buf, format);
      if (header === undefined) return;
      const meta = await sharp(buf).metadata().catch((error: unknown) => error);
      expect(meta, name).not.toBeInstanceOf(Error);
      const { autoOrient, hasAlpha } = meta as Metadata;
      expect(header, name).toEqual({ width: autoOrient.width, height: autoOrient.height, alpha: hasAlpha });
    };
    const png = await pixels(40, 30, 4).png({ palette: true }).toBuffer();
    const jpeg = await orientedJpeg();
    for (let length = 0; length < 120; length++) await asSharp(png.subarray(0, length), 'png', `PNG cut at ${length}`);
    // A JPEG cut anywhere before its frame header ends (its EXIF comes first) is left to sharp.
    const frame = jpeg.findIndex((b, i) => b === 0xff && jpeg[i + 1] === 0xc0);
    for (let length = 0; length < frame + 9; length++) expect(rasterHeader(jpeg.subarray(0, length), 'jpeg'), `JPEG cut at ${length}`).toBeUndefined();
    for (let length = 0; length < 33; length++) expect(rasterHeader(png.subarray(0, length), 'png'), `PNG cut at ${length}`).toBeUndefined();
    const damaged = Buffer.from(png);
    damaged[18] = damaged[18]! ^ 0x01;
    expect(rasterHeader(damaged, 'png')).toBeUndefined();
    expect(rasterHeader(Buffer.concat([jpeg.subarray(0, 4), Buffer.alloc(200, 0x41)]), 'jpeg')).toBeUndefined();
    expect(rasterHeader(await pixels(8, 8, 3).webp().toBuffer(), 'webp')).toBeUndefined();
    expect(rasterHeader(await pixels(8, 8, 3).avif().toBuffer(), 'avif')).toBeUndefined();
  });

  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('lets a load whose raster images are PNG and JPEG run without loading sharp, and still loads it for WebP', async () => {
    const loaded = async (extra: Array<[string, Buffer]>) => {
      const content = await mkdtemp(path.join(os.tmpdir(), 'site-raster-header-'));
      dirs.push(content);
      await mkdir(path.join(content, 'images'));
      for (const [name, buf] of [['share.png', await pixels(120, 63, 4).png().toBuffer()], ['photo.jpg', await orientedJpeg()], ...extra] as const) await writeFile(path.join(content, 'images', name), buf);
      // Its own process, so that nothing else has loaded sharp: the shared objects it holds at the end.
      const script = `const { loadImages } = await import('./src/content/images.ts');
        const { images, errors } = await loadImages(${JSON.stringify(content)});
        const objects = process.report.getReport().sharedObjects;
        console.log(JSON.stringify({ images: Object.fromEntries(Object.entries(images).map(([k, v]) => [k, [v.source.width, v.source.height]])), errors, sharp: objects.some((o) => /sharp|vips/.test(o)) }));`;
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: path.resolve(import.meta.dirname, '../..'), encoding: 'utf8' });
      expect(child.status, child.stderr).toBe(0);
      return JSON.parse(child.stdout) as { images: Record<string, [number, number]>; errors: unknown[]; sharp: boolean };
    };
    expect(await loaded([])).toEqual({ images: { '/images/photo.jpg': [400, 600], '/images/share.png': [120, 63] }, errors: [], sharp: false });
    expect((await loaded([['web.webp', await pixels(10, 12, 3).webp().toBuffer()]])).sharp).toBe(true);
  });
});
