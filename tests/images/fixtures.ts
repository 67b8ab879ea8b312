import sharp from 'sharp';

/**
 * A small JPEG as a phone stores a portrait shot: pixels landscape (wide × high), left half red
 * and right half blue, with EXIF Orientation 6 ('turn 90° clockwise to view'), the camera's make
 * and a GPS position. Upright it is high × wide, red on top and blue below.
 */
export async function orientedJpeg(wide = 600, high = 400): Promise<Buffer> {
  const raw = Buffer.alloc(wide * high * 3);
  for (let y = 0; y < high; y++) {
    for (let x = 0; x < wide; x++) raw[(y * wide + x) * 3 + (x < wide / 2 ? 0 : 2)] = 220;
  }
  return sharp(raw, { raw: { width: wide, height: high, channels: 3 } })
    .withExif({ IFD0: { Make: 'FixtureCam', Model: 'Pocket 1' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '56/1 27/1 43/1', GPSLongitudeRef: 'W', GPSLongitude: '2/1 58/1 12/1' } })
    .withMetadata({ orientation: 6 })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** The elements of some markup as tag + attributes, attribute order and self-closing slashes aside. */
export function elements(html: string): Array<{ tag: string; attrs: Record<string, string> }> {
  return [...html.matchAll(/<(\w+)([^>]*?)\/?>/g)].map((m) => ({
    tag: m[1]!.toLowerCase(),
    attrs: Object.fromEntries([...m[2]!.matchAll(/([\w-]+)="([^"]*)"/g)].map((a) => [a[1]!.toLowerCase(), a[2]!])),
  }));
}

/** The <picture> elements of a page, each with its <source>s and <img>. */
export function pictures(html: string) {
  return [...html.matchAll(/<picture>([\s\S]*?)<\/picture>/g)].map((m) => {
    const els = elements(m[1]!);
    return { sources: els.filter((e) => e.tag === 'source').map((e) => e.attrs), img: els.find((e) => e.tag === 'img')!.attrs };
  });
}

/** `url 480w, url 750w` → [[url, 480], …] */
export const candidates = (srcset: string) => srcset.split(', ').map((c) => { const [url, w] = c.split(' '); return [url!, Number(w!.slice(0, -1))] as const; });
