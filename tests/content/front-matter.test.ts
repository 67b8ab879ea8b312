import { describe, expect, it } from 'vitest';
import { splitFrontMatter } from '../../src/content/front-matter.ts';

describe('splitFrontMatter', () => {
  it('splits the front matter from the body, which starts on the line after the closing ---', () => {
    expect(splitFrontMatter('---\ntitle: A\n---\n\nBody\n')).toEqual({ front: '\ntitle: A', body: '\nBody\n' });
    expect(splitFrontMatter('---\r\ntitle: A\r\n---\r\nBody')).toEqual({ front: '\r\ntitle: A\r', body: 'Body' });
  });

  it('takes a file without front matter as all body', () => {
    expect(splitFrontMatter('# Title\n')).toEqual({ front: '', body: '# Title\n' });
    expect(splitFrontMatter('----\nnot front matter\n')).toEqual({ front: '', body: '----\nnot front matter\n' });
    expect(splitFrontMatter('')).toEqual({ front: '', body: '' });
  });

  it('ignores a byte-order mark and a language after the opening ---', () => {
    expect(splitFrontMatter('\ufeff---yaml\ntitle: A\n---\nBody')).toEqual({ front: '\ntitle: A', body: 'Body' });
  });

  it('takes an unclosed front matter as all front matter, so that its errors are reported', () => {
    expect(splitFrontMatter('---\ntitle: A\n')).toEqual({ front: '\ntitle: A\n', body: '' });
  });
});
