// A markdown file's front hash (src/content/front-hash.ts): the same while only its body changes, never
// the same for two files whose front matter is split differently (front-matter.ts, as gray-matter splits it).
import { describe, expect, it } from 'vitest';
import { frontHash } from '../../src/content/front-hash.ts';
import { splitFrontMatter } from '../../src/content/front-matter.ts';

const bytes = (text: string) => Buffer.from(text, 'utf8');
const ARTICLE = '---\ntitle: "Data you can trust"\ndate: 2026-03-02\ncategories: [Data Strategy]\n---\n\nThe body.\n\n---\n\nAfter a rule.\n';

describe('frontHash', () => {
  it('stays the same when only the body changes, a thematic break and all', () => {
    const before = frontHash(bytes(ARTICLE));
    expect(frontHash(bytes(`${ARTICLE}One more sentence.\n`))).toBe(before);
    expect(frontHash(bytes(ARTICLE.replace('The body.', 'Another body.\n\n---\n')))).toBe(before);
    expect(frontHash(bytes(ARTICLE.replace('After a rule.', '')))).toBe(before);
  });

  it('changes with any byte of the front matter or its delimiters', () => {
    const before = frontHash(bytes(ARTICLE));
    for (const edited of [
      ARTICLE.replace('Data you can trust', 'Data you can trust!'),
      ARTICLE.replace('title:', 'title: '),
      ARTICLE.replace('---\ntitle', '---yaml\ntitle'),
      `# A comment\n${ARTICLE}`,
    ]) expect(frontHash(bytes(edited))).not.toBe(before);
  });

  it('covers the whole file when it has no front matter or never closes it', () => {
    for (const text of ['# No front matter\n\nA body.\n', '---\ntitle: unclosed\n', '\ufeff---\ntitle: A\n---\nBody\n']) {
      expect(frontHash(bytes(`${text}more`))).not.toBe(frontHash(bytes(text)));
    }
  });

  it('is the same for the same bytes however they are held (a view into a larger buffer)', () => {
    const whole = bytes(`xx${ARTICLE}yy`);
    expect(frontHash(whole.subarray(2, whole.length - 2))).toBe(frontHash(bytes(ARTICLE)));
  });

  it('is never the same for two files whose front matter is split differently', () => {
    // Variants of one article: where the closing delimiter falls, what opens it, what follows it. What
    // follows the closing '---' on its line is the body's.
    const texts = ['---\ntitle: A\n---\nBody\n', '---\ntitle: A\n----\nBody\n', '----\ntitle: A\n---\nBody\n', '---\ntitle: A\n---\n---\nBody\n',
      '---\ntitle: A\nmore: 1\n---\nBody\n', '---\r\ntitle: A\r\n---\r\nBody\r\n', '---\ntitle: A', '---\n---\nBody\n', '---yaml\ntitle: A\n---\nBody\n'];
    for (const a of texts) {
      for (const b of texts) {
        if (splitFrontMatter(a).front !== splitFrontMatter(b).front) expect(frontHash(bytes(a)), `${JSON.stringify(a)} against ${JSON.stringify(b)}`).not.toBe(frontHash(bytes(b)));
      }
    }
    // And the same front matter with another body keeps its hash.
    expect(frontHash(bytes('---\ntitle: A\n----\nBody\n'))).toBe(frontHash(bytes('---\ntitle: A\n---\nBody\n')));
  });
});
