import { describe, expect, it } from 'vitest';
import { decodeAttribute } from '../../src/links/entities.ts';
import { extractPage } from '../../src/links/extract.ts';
import { parseSrcset } from '../../src/links/srcset.ts';
import { scanTags } from '../../src/links/tokenize.ts';

const urls = (html: string) => extractPage(html).links.map((l) => l.url);

describe('scanTags', () => {
  it('keeps a ">" inside quoted values and reads single-quoted and unquoted values', () => {
    const tags: Array<[string, Record<string, string>]> = [];
    scanTags(`<a title="a > b" href='/one'>x</a><img alt='it\\'s' src=/two.png width=3><p class=x/>`, (t) => tags.push([t.name, Object.fromEntries(t.attrs)]));
    expect(tags).toEqual([
      ['a', { title: 'a > b', href: '/one' }],
      ['img', { alt: "it\\", "s'": '', src: '/two.png', width: '3' }],
      ['p', { class: 'x/' }],
    ]);
  });

  it('lower-cases names and lets the first of duplicate attributes win', () => {
    const tags: Array<[string, Record<string, string>]> = [];
    scanTags('<A HREF="/a" href="/b" Data-X>', (t) => tags.push([t.name, Object.fromEntries(t.attrs)]));
    expect(tags).toEqual([['a', { href: '/a', 'data-x': '' }]]);
  });

  it('drops a tag cut off by the end of the file', () => {
    const names: string[] = [];
    scanTags('<p>ok</p><a href="/never', (t) => names.push(t.name));
    expect(names).toEqual(['p']);
  });
});

describe('extractPage', () => {
  it('ignores links inside comments, including odd comment endings', () => {
    expect(urls('<!-- <a href="/c1"> --><!--> <a href="/a"> <!-- x --!> <a href="/b"><!-- <a href="/c2">')).toEqual(['/a', '/b']);
  });

  it('ignores markup inside script, style, textarea and title, and JSON data blocks', () => {
    const html = `<title><a href="/t"></title>
      <script>document.write('<a href="/s">')</script>
      <script type="application/json">{"url": "/json", "html": "<img src='/j.png'>"}</script>
      <script type="application/ld+json">{"@id": "https://example.com/ld"}</script>
      <style>a[href="/css"]::after { content: "<a href='/css2'>" }</style>
      <textarea><a href="/ta"></textarea>
      <a href="/real">real</a><SCRIPT src="/app.js"></SCRIPT ><a href="/after">`;
    expect(urls(html)).toEqual(['/real', '/app.js', '/after']);
  });

  it('does not end a script at a "</scripty" look-alike', () => {
    expect(urls('<script>var s = "</scripty>"; var t = "<a href=/x>";</script><a href="/y">')).toEqual(['/y']);
  });

  it('decodes character references in values', () => {
    expect(urls('<a href="/search?a=1&amp;b=2"><a href="/x?q=&quot;hi&quot;&#38;&#x26;"><a href="/p?a=1&copy=2">')).toEqual([
      '/search?a=1&b=2',
      '/x?q="hi"&&',
      '/p?a=1&copy=2',
    ]);
  });

  it('reads links from the elements that load or navigate, not from forms', () => {
    const html = `<a href="/a"></a><area href="/area"><img src="/i.png" srcset="/i-1x.png 1x, /i-2x.png 2x">
      <picture><source srcset="/s.webp 480w,/s-big.webp 960w" type="image/webp"></picture>
      <video poster="/poster.jpg" src="/v.mp4"></video><iframe src="/embed"></iframe>
      <form action="/api/send-contact-form"><button formaction="/api/other">Go</button></form><a>no href</a>`;
    expect(urls(html)).toEqual(['/a', '/area', '/i.png', '/i-1x.png', '/i-2x.png', '/s.webp', '/s-big.webp', '/v.mp4', '/poster.jpg', '/embed']);
  });

  it('checks resource <link>s anywhere, page relations only inside the site, origins never', () => {
    const scan = extractPage(`<link rel="canonical" href=" https://example.com/about ">
      <link rel="preconnect" href="https://fonts.example.net"><link rel="dns-prefetch" href="//cdn.example.net">
      <link rel="stylesheet" href="/assets/site.css"><link rel="icon shortcut" href="/favicon.svg">
      <link rel="modulepreload" href="/assets/a.js"><link rel="alternate" hreflang="fr" href="https://example.fr/">`);
    expect(scan.canonical).toBe('https://example.com/about');
    expect(scan.links).toEqual([
      { url: 'https://example.com/about', tag: 'link', attr: 'href', internalOnly: true },
      { url: '/assets/site.css', tag: 'link', attr: 'href' },
      { url: '/favicon.svg', tag: 'link', attr: 'href' },
      { url: '/assets/a.js', tag: 'link', attr: 'href' },
      { url: 'https://example.fr/', tag: 'link', attr: 'href', internalOnly: true },
    ]);
  });

  it('collects ids, <a name> anchors and duplicate ids', () => {
    const scan = extractPage('<h2 id="faq">FAQ</h2><a name="old-anchor"></a><div id="x"></div><p id="x"></p><span id=x></span><i id="">');
    expect([...scan.ids]).toEqual(['faq', 'x']);
    expect([...scan.names]).toEqual(['old-anchor']);
    expect(Object.fromEntries(scan.duplicateIds)).toEqual({ x: 3 });
  });
});

describe('parseSrcset', () => {
  it('splits candidates, keeping commas inside URLs and skipping descriptors', () => {
    expect(parseSrcset('/a.jpg 1x, /b.jpg 2x')).toEqual(['/a.jpg', '/b.jpg']);
    expect(parseSrcset('/a.jpg, /b.jpg 2x,/c.jpg')).toEqual(['/a.jpg', '/b.jpg', '/c.jpg']);
    // As in HTML, a comma inside a URL belongs to it; only trailing commas end a candidate.
    expect(parseSrcset('/a.jpg,/b.jpg 2x')).toEqual(['/a.jpg,/b.jpg']);
    expect(parseSrcset('/img?x=1,2 480w, /other.jpg 960w')).toEqual(['/img?x=1,2', '/other.jpg']);
    expect(parseSrcset('/a.jpg (foo, bar) 1x, /b.jpg')).toEqual(['/a.jpg', '/b.jpg']);
    expect(parseSrcset('  ')).toEqual([]);
  });
});

describe('decodeAttribute', () => {
  it('decodes named and numeric references and leaves unknown ones as written', () => {
    expect(decodeAttribute('&lt;&gt;&amp;&#39;&#x27;&nbsp;&unknown;&#0;')).toBe(`<>&''\u00a0&unknown;\ufffd`);
    expect(decodeAttribute('a&amp b')).toBe('a& b');
    expect(decodeAttribute('a&ampb')).toBe('a&ampb');
  });
});
