import { describe, expect, it } from 'vitest';
import type { RoutingTable } from '../../src/url-resolution/resolve.ts';
import { checkSite } from '../../src/links/check.ts';
import { extractPage } from '../../src/links/extract.ts';
import { groupLayoutProblems, inLayout } from '../../src/links/group.ts';
import { buildReport, formatText } from '../../src/links/report.ts';
import type { Page } from '../../src/links/types.ts';

const table: RoutingTable = { pageUrls: ['/', '/about', '/blog'], redirects: {}, fallbacks: [], notFound: '/404.html' };
const files = new Set(['/index.html', '/about.html', '/blog.html', '/404.html', '/assets/site.css']);

function page(url: string, body: string, canonical = true): Page {
  const file = url === '/' ? '/index.html' : url + '.html';
  const head = canonical ? `<link rel="canonical" href="https://example.com${url}">` : '';
  return { url, file, scan: extractPage(`<head>${head}</head><body>${body}</body>`) };
}

const problemsOf = (pages: Page[]) => checkSite(pages, table, files).problems.map((p) => `${p.page}: ${p.link} → ${p.reason}`);

describe('checkSite', () => {
  it('passes a sound site', () => {
    const pages = [page('/', '<a href="/about#team">t</a><a href="#main">m</a><main id="main"></main>'), page('/about', '<h2 id="team">T</h2><a href="/?x=1">home</a>')];
    const findings = checkSite(pages, table, files);
    expect(findings.problems).toEqual([]);
    expect(findings.internal).toBe(5); // two links each, plus the canonicals
  });

  it('accepts mailto:, tel:, data:, empty fragments and #top; refuses javascript:', () => {
    expect(problemsOf([page('/', `<a href="mailto:a@example.com">m</a><a href="tel:+44">t</a><img src="data:image/png;base64,AA">
      <a href="#">x</a><a href="#top">top</a><a href="/about#">a</a><a href=" JavaScript:alert(1)">j</a><a href="java&#x09;script:x">k</a>`)])).toEqual([
      '/: JavaScript:alert(1) → javascript: URL (unsafe; use a button)',
      '/: java\tscript:x → javascript: URL (unsafe; use a button)',
    ]);
  });

  it('matches fragments against ids and <a name>, percent-decoded', () => {
    const pages = [page('/', '<a href="/about#caf%C3%A9">c</a><a href="/about#legacy">l</a><a href="/about#nope">n</a>'), page('/about', '<h2 id="café">C</h2><a name="legacy"></a>')];
    expect(problemsOf(pages)).toEqual(['/: /about#nope → no element with id "nope" on /about']);
  });

  it('treats absolute links to the canonical origin as internal, and other origins as external', () => {
    const findings = checkSite([page('/', '<a href="https://example.com/about">a</a><a href="https://example.com/gone">g</a><a href="https://example.org/x#frag">x</a><a href="//example.org/x">y</a>')], table, files);
    expect(findings.problems.map((p) => p.link)).toEqual(['https://example.com/gone']);
    expect(findings.external).toEqual([{ url: 'https://example.org/x', pages: ['/'] }]);
  });

  it('flags relative URLs, with what they resolve to', () => {
    expect(problemsOf([page('/about', '<a href="blog">b</a><a href="../servces">s</a><a href="?page=2">p</a>')])).toEqual([
      '/about: blog → relative URL; use root-relative /blog',
      '/about: ../servces → relative URL; use root-relative /servces; and /servces: 404 (no page)',
      '/about: ?page=2 → relative URL; use root-relative /about?page=2',
    ]);
  });

  it('checks og:image and twitter:image as files of the site, and holds them to absolute URLs', () => {
    const head = (meta: string) => ({ url: '/', file: '/index.html', scan: extractPage(`<head><link rel="canonical" href="https://example.com/">${meta}</head>`) });
    const cards = new Set([...files, '/og/home-1234567890ab.png']);
    const ok = head('<meta property="og:image" content="https://example.com/og/home-1234567890ab.png"><meta name="twitter:image" content="https://example.com/og/home-1234567890ab.png">');
    expect(checkSite([ok], table, cards).problems).toEqual([]);
    const bad = head('<meta property="og:image" content="https://example.com/og/gone.png"><meta name="twitter:image" content="/og/home-1234567890ab.png">');
    expect(checkSite([bad], table, cards).problems.map((p) => `${p.link} → ${p.reason}`)).toEqual([
      'https://example.com/og/gone.png → 404 (no file /og/gone.png)',
      '/og/home-1234567890ab.png → twitter:image must be an absolute https:// URL',
    ]);
  });

  it('reports each broken link once per page, and an empty src', () => {
    expect(problemsOf([page('/', '<a href="/x">1</a><a href="/x">2</a><img src="">')])).toEqual(['/: /x → 404 (no page)', '/:  → empty src']);
  });
});

describe('checkSite on a plain static folder (no routing table)', () => {
  const plainFiles = new Set(['/index.html', '/docs/index.html', '/docs/intro.html', '/css/site.css']);
  const plainPage = (file: string, body: string): Page => ({ url: file.replace(/index\.html$/, ''), file, scan: extractPage(`<body>${body}</body>`) });
  const plainProblems = (pages: Page[]) => checkSite(pages, undefined, plainFiles).problems.map((p) => `${p.page}: ${p.link} → ${p.reason}`);

  it('resolves relative URLs against the page itself and holds them to no URL convention', () => {
    expect(plainProblems([plainPage('/docs/index.html', '<a href="intro.html">i</a><a href="../">h</a><a href="/docs/">d</a><a href="javascript:void(0)">j</a><a href="outro.html">o</a>')])).toEqual([
      '/docs/: outro.html → 404 (no file /docs/outro.html)',
    ]);
  });

  it('resolves against <base href>, fragments included', () => {
    expect(plainProblems([plainPage('/docs/index.html', '<base href="/"><a href="docs/intro.html">i</a><a href="intro.html">x</a><link rel="stylesheet" href="css/site.css"><a href="#top">t</a><a href="#main">m</a><a href="#nav">n</a>'), plainPage('/index.html', '<main id="main"></main>')])).toEqual([
      '/docs/: intro.html → 404 (no file /intro.html)',
      '/docs/: #nav → no element with id "nav" on /',
    ]);
  });
});

describe('layout grouping', () => {
  it('groups a link broken on every page, and only that', () => {
    const pages = ['/', '/about', '/blog'].map((url) => page(url, `<a href="/privacy">p</a>${url === '/' ? '<a href="/servces">s</a>' : ''}`));
    const report = buildReport(checkSite(pages, table, files));
    expect(report.grouped).toEqual([{ link: '/privacy', reason: '404 (no page)', kind: 'not-found', pages: 3 }]);
    expect(report.broken.map((b) => b.link)).toEqual(['/servces']);
    expect(formatText(report, false)).toEqual([
      'in the layout (on all 3 pages): /privacy → 404 (no page)',
      '/: /servces → 404 (no page)',
      'checked 3 pages, 7 internal links, 0 external links (not fetched); 2 broken',
    ]);
  });

  it('does not group a link that works on some page that has it', () => {
    const problems = [1, 2, 3].map((n) => ({ page: `/p${n}`, link: '#faq', reason: 'no element with id "faq"', kind: 'fragment' as const }));
    expect(groupLayoutProblems(problems, new Map([['#faq', 4]]), 4).grouped).toEqual([]);
    expect(groupLayoutProblems(problems, new Map([['#faq', 3]]), 3).grouped).toHaveLength(1);
  });

  it('uses the 90% rule for links missing from a few pages', () => {
    expect(inLayout(34, 34)).toBe(true);
    expect(inLayout(31, 34)).toBe(true);
    expect(inLayout(30, 34)).toBe(false);
    expect(inLayout(2, 2)).toBe(true);
    expect(inLayout(2, 3)).toBe(false);
    expect(inLayout(1, 1)).toBe(false);
  });
});

describe('the site origin', () => {
  it('comes from the other pages for a page without a canonical URL', () => {
    const pages = [page('/', '<a href="/about">a</a>'), page('/about', '<a href="https://example.com/gone">g</a><a href="https://example.com/blog">b</a>', false)];
    const findings = checkSite(pages, table, files);
    expect(findings.problems.map((p) => `${p.page}: ${p.link} → ${p.reason}`)).toEqual(['/about: https://example.com/gone → 404 (no page)']);
    expect(findings.external).toEqual([]);
  });
});
