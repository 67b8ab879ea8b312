import { describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';
import { PageHero } from '../../templates/components/PageHero.tsx';

/** The hero's parts in document order, as a screen reader meets them. */
function parts(html: string): string[] {
  return [...html.matchAll(/<(h1|p|a|img|div class="button-row")[^>]*>/g)].map(([tag]) => tag.replace(/ (href|src|alt|width|height|decoding|loading)="[^"]*"/g, ''));
}

describe('PageHero: the one hero of every inner page', () => {
  it('is a region named by its heading, the page\'s only h1', () => {
    const html = renderToString(<PageHero id="about-hero" eyebrow="About us" heading="Data work that lands" text="Intro" />);
    expect(html).toMatch(/^<section class="page-hero" aria-labelledby="about-hero">/);
    expect(html.match(/<h1/g)).toHaveLength(1);
    expect(html).toContain('<h1 id="about-hero">Data work that lands</h1>');
  });

  it('puts a back link first, then eyebrow, heading, introduction and the row of actions', () => {
    const html = renderToString(
      <PageHero id="h" eyebrow="Dundee" heading="Case study" text="What changed" className="services-hero"
        before={<a href="/testimonials">Back to Testimonials</a>}
        actions={<a className="button" href="/contact">Book a Free Consultation</a>} />,
    );
    expect(html).toContain('class="page-hero services-hero"');
    expect(parts(html)).toEqual(['<a>', '<p class="eyebrow">', '<h1 id="h">', '<p>', '<div class="button-row">', '<a class="button">']);
  });

  it('sets a figure beside the text only when there is one', () => {
    const plain = renderToString(<PageHero id="h" heading="Heading" />);
    expect(plain).toContain('<div class="container"><h1 id="h">Heading</h1></div>');
    const withFigure = renderToString(<PageHero id="h" heading="Heading" aside={<img src="/x.png" alt="A chart" />} />);
    expect(withFigure).toContain('<div class="container split company-hero"><div><h1 id="h">Heading</h1></div><img');
  });

  it('takes richer introductions as children, after the heading', () => {
    const html = renderToString(<PageHero id="h" heading="Insights"><p>Intro</p><p className="page-hero__aside">Feed</p></PageHero>);
    expect(html).toContain('<h1 id="h">Insights</h1><p>Intro</p><p class="page-hero__aside">Feed</p>');
  });
});
