import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathIn } from '../../src/output/tree-file.ts';

// Every file a build writes goes through pathIn: a public path must land inside the tree, whatever it holds.
const root = path.resolve('/tmp/site-tree');
const joined = (file: string) => path.join(root, ...file.split('/').filter(Boolean));

describe('a public path inside a tree', () => {
  it('is the tree and the path, for plain paths and for ones with empty, dotted or odd names', () => {
    for (const file of ['/about.html', '/blog/page/2.html', '/og/home-0123456789ab.png', '/_assets/app-3F2A.js', '/a..b/c.html', '/.well-known/x', '/blog//x.html', 'blog/x.html', '/blog/./x.html', '/blog/x/', '/ünïcode/ß.html']) {
      expect(pathIn(root, file), file).toBe(joined(file));
    }
  });

  it('refuses a path that would leave the tree', () => {
    for (const file of ['/..', '/../x.html', '/blog/../../x.html', '/blog/..', '..']) expect(() => pathIn(root, file), file).toThrow(/refusing to write outside/);
  });

  it('keeps a path that climbs back inside the tree inside it', () => {
    expect(pathIn(root, '/blog/../about.html')).toBe(path.join(root, 'about.html'));
  });
});
