import { describe, expect, it } from 'vitest';
import { imagesNamedIn } from '../../src/content/markdown-images.ts';
import type { SiteImage } from '../../src/images/site-image.ts';

// The images a markdown file names go into its cache key: a photo's change must re-render exactly the
// articles whose text names it, and the key must not depend on where in the text the name is.
const image = (name: string) => ({ src: `/images/${name}` }) as unknown as SiteImage;
const images: Record<string, SiteImage> = Object.fromEntries(['a.jpg', 'a.jpg.webp', 'team/b.png', 'c.svg', 'logo.svg', 'ü.png'].map((n) => [`/images/${n}`, image(n)]));

describe('the images a markdown file names', () => {
  it('are every image whose path appears in the text, in the order of the images, however often or wherever', () => {
    const text = '---\nimage: /images/c.svg\n---\n![A](/images/a.jpg.webp) and ![B](/images/team/b.png "t")\nAgain /images/c.svg, and /images/missing.png.';
    const expected = ['/images/a.jpg', '/images/a.jpg.webp', '/images/team/b.png', '/images/c.svg'];
    expect(Object.keys(imagesNamedIn(text, images))).toEqual(expected);
    // The file's bytes as read, which a load hashes without decoding.
    expect(Object.keys(imagesNamedIn(Buffer.from(text), images))).toEqual(expected);
  });

  it('agree with asking the text for each path, over many texts, as text and as bytes', () => {
    const words = ['/images/', '/images/a', '.jpg', '.webp', 'team/b.png', 'c.svg', 'logo', '.svg', ' ', '\n', '/imag', 'es/', '/', 'é', '/images/ü.png'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 2000; n++) {
      const text = Array.from({ length: 1 + Math.floor(next() * 12) }, () => words[Math.floor(next() * words.length)]).join('');
      const expected = Object.keys(images).filter((key) => text.includes(key));
      expect(Object.keys(imagesNamedIn(text, images)), text).toEqual(expected);
      expect(Object.keys(imagesNamedIn(Buffer.from(text), images)), text).toEqual(expected);
    }
  });

  it('are none in a text that names no image', () => {
    expect(imagesNamedIn('Plain words, and a link to /blog/what-is-data.', images)).toEqual({});
  });
});
