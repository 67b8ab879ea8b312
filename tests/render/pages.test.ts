import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadSite, type Site } from '../../src/content/load.ts';
import { routes } from '../../src/routes/table.ts';
import { render } from '../../src/render/server-entry.tsx';
import type { SiteSettings } from '../../src/content/schemas.ts';

/** The site's pages as the build renders them, from the real content. */
let site: Site;
beforeAll(async () => { site = await loadSite(path.resolve('content')); });

function page(url: string, settings: SiteSettings = site.settings): string {
  const route = routes({ ...site, settings }).find((r) => r.url === url);
  if (!route) throw new Error(`no route ${url}`);
  return render(route, { settings, images: site.images, url, year: 2025 }).body;
}

/** The markup of the element that opens with `opening` (a section's id or label), up to its end tag. */
function part(html: string, opening: RegExp): string {
  const start = html.search(opening);
  if (start < 0) throw new Error(`no ${opening} in the page`);
  const tag = /^<(\w+)/.exec(html.slice(start))![1]!;
  return html.slice(start, html.indexOf(`</${tag}>`, start));
}

interface Anchor { href: string | undefined; target: string | undefined; rel: string | undefined; text: string }
function anchors(html: string): Anchor[] {
  return [...html.matchAll(/<a\b([^>]*)>(.*?)<\/a>/gs)].map(([, attrs, inner]) => {
    const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(attrs!)?.[1];
    return { href: attr('href')?.replace(/&amp;/g, '&'), target: attr('target'), rel: attr('rel'), text: inner!.replace(/<[^>]+>/g, '') };
  });
}

const assessmentLinks = (html: string) => anchors(html).filter((a) => /Test Your Data Maturity|Survey|assessment/i.test(a.text));
const external = (href: string, text = 'Test Your Data Maturity') => ({ href, target: '_blank', rel: 'noopener noreferrer', text: `${text} (opens in a new tab)` });
const onSite = { href: '/dialog-assessment', target: undefined, rel: undefined, text: 'Test Your Data Maturity' };

describe('Test Your Data Maturity where it opens an external survey', () => {
  it("home: the call-to-action card opens the survey in a new tab, without an opener, and says so", () => {
    const card = part(page('/'), /<section id="next-steps"/);
    expect(assessmentLinks(card)).toEqual([external(site.settings.assessmentForms.organisation)]);
    expect(card).toMatch(/<svg class="icon icon--external"[^>]*aria-hidden="true"/);
  });

  it('data literacy: the six-dimension assessment (and the hero) open the readiness survey', () => {
    const html = page('/services/data-literacy');
    expect(assessmentLinks(part(html, /<section id="assessment"/))).toEqual([external(site.settings.assessmentForms.readiness)]);
    expect(assessmentLinks(part(html, /<section class="page-hero services-hero"/))).toEqual([external(site.settings.assessmentForms.readiness)]);
  });

  it("every case study's closing call to action opens the survey", () => {
    for (const study of site.caseStudies) {
      const cta = part(page(`/case-studies/${study.slug}`), /<section [^>]*aria-labelledby="case-study-next-heading"/);
      expect(assessmentLinks(cta), study.slug).toEqual([external(site.settings.assessmentForms.organisation)]);
    }
  });

  it('DIAlog: one survey per audience in the closing call to action, the general survey in the hero', () => {
    const html = page('/dialog');
    const { leaders, teams, organisation } = site.settings.assessmentForms;
    expect(assessmentLinks(part(html, /<section id="dialog-next-steps"/))).toEqual([
      external(leaders, 'Start the Leadership Survey'),
      external(teams, 'Start the Team Survey'),
    ]);
    expect(new Set([leaders, teams, organisation]).size).toBe(3);
    expect(assessmentLinks(part(html, /<section class="page-hero/))).toEqual([external(organisation)]);
  });

  it('the readiness article links to the external free assessment', () => {
    const body = page('/blog/scotland-data-transformation-readiness');
    expect(anchors(body).filter((a) => a.href === site.settings.assessmentForms.readiness))
      .toEqual([external(site.settings.assessmentForms.readiness, 'DIAlog readiness assessment')]);
  });
});

describe('Test Your Data Maturity where the product rules name /dialog-assessment', () => {
  it('/testimonials and /case-studies close with the on-site assessment, in the same tab', () => {
    expect(assessmentLinks(part(page('/testimonials'), /<section id="work-next-steps"/))).toEqual([onSite]);
    expect(assessmentLinks(part(page('/case-studies'), /<section id="case-studies-next-steps"/))).toEqual([onSite]);
  });

  it('every external link falls back to /dialog-assessment when its address is left empty', () => {
    const settings = { ...site.settings, assessmentForms: { organisation: '', leaders: '', teams: '', readiness: '' } };
    for (const url of ['/', '/about', '/dialog', '/services', '/services/data-literacy', ...site.caseStudies.map((s) => `/case-studies/${s.slug}`)]) {
      const links = anchors(page(url, settings)).filter((a) => a.text === 'Test Your Data Maturity' || / Survey$/.test(a.text));
      expect(links.length, url).toBeGreaterThan(0);
      for (const link of links) expect(link, url).toEqual({ ...onSite, text: link.text });
    }
  });
});

describe('the menu toggle in the server HTML', () => {
  it('is a collapsed button, with a <noscript> link to the footer navigation beside it', () => {
    const header = part(page('/about'), /<header class="site-header"/);
    expect(header).toMatch(/<button type="button" class="menu-toggle"[^>]* aria-expanded="false"[^>]*>.*?Menu<\/button>/s);
    expect(header).toMatch(/<noscript><a class="menu-toggle" href="#footer-nav">.*?Menu<\/a><\/noscript>/s);
    // The only link named Menu is the one a browser shows without script.
    expect(header.replace(/<noscript>.*?<\/noscript>/gs, '')).not.toMatch(/<a [^>]*menu-toggle/);
    expect(page('/about')).toContain('<nav id="footer-nav"');
  });
});

describe('about', () => {
  it('heads its sections so a reader finds purpose, vision and mission by name', () => {
    const headings = [...page('/about').matchAll(/<h2 id="(purpose|vision|mission)-heading">(.*?)<\/h2>/g)].map((m) => [m[1], m[2]]);
    expect(headings).toEqual([['purpose', 'Our Purpose'], ['vision', 'Our Vision'], ['mission', 'Our Mission']]);
  });
});
