import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

/**
 * A photograph-like JPEG that is ours: the site's own hero chart (content/images/hero-analytics.svg)
 * enlarged to a phone camera's 4032 × 3024 and given texture at several scales, saved at quality 90:
 * about the 4-5 MB an author's phone photo weighs. The texture is seeded, so the bytes (and the variants
 * made from them, and the cache keys) are the same on every run. Never part of the public site.
 */
export async function fixturePhoto(root: string, size = { width: 4032, height: 3024 }): Promise<Buffer> {
  const svg = await readFile(path.join(root, 'content/images/hero-analytics.svg'));
  // librsvg draws the chart's masks slowly at camera size: draw it at its own size, then enlarge.
  const drawn = await sharp(svg).png().toBuffer();
  const { data, info } = await sharp(drawn).resize(size.width, size.height, { fit: 'cover' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let seed = 0x5eed;
  const random = () => {
    // mulberry32: small, seeded, good enough for texture.
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  // Texture at several scales, as a photograph has detail at every size: colour blotches, mottling, grain.
  const layer = async (cell: number, channels: 1 | 3) => {
    const w = Math.ceil(size.width / cell);
    const h = Math.ceil(size.height / cell);
    const cells = Buffer.alloc(w * h * channels);
    for (let i = 0; i < cells.length; i++) cells[i] = random() * 256;
    if (cell === 1) return cells;
    const grown = sharp(cells, { raw: { width: w, height: h, channels } }).resize(size.width, size.height, { kernel: 'cubic' });
    return (channels === 1 ? grown.toColourspace('b-w') : grown).raw().toBuffer();
  };
  const [blotches, mottle, grain] = await Promise.all([layer(64, 3), layer(6, 1), layer(1, 1)]);
  for (let p = 0, i = 0; p < size.width * size.height; p++) {
    const luma = ((mottle[p]! - 128) * 28 + (grain[p]! - 128) * 10) / 128;
    for (let c = 0; c < 3; c++, i++) data[i] = Math.min(255, Math.max(0, Math.round(data[i]! + luma + ((blotches[i]! - 128) * 20) / 128)));
  }
  // Not `raw: info`: it says `premultiplied`, which would make sharp divide by a channel that is not alpha.
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
}

/**
 * A copy of the site's content/ in `into`, with the fixture photo as the home page's hero: the
 * heaviest first screen an author can give the site.
 */
export async function photoHeroContent(root: string, into: string): Promise<{ contentDir: string; photo: string; photoBytes: number }> {
  const contentDir = path.join(into, 'content');
  await cp(path.join(root, 'content'), contentDir, { recursive: true });
  const photo = await fixturePhoto(root);
  await writeFile(path.join(contentDir, 'images/hero-photo.jpg'), photo);
  const home = path.join(contentDir, 'pages/home.yaml');
  await writeFile(home, (await readFile(home, 'utf8')).replace('/images/hero-analytics.svg', '/images/hero-photo.jpg'));
  return { contentDir, photo: '/images/hero-photo.jpg', photoBytes: photo.length };
}
