import path from 'node:path';
import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { z } from 'zod';
import { loadSite, type CaseStudy, type Site } from '../../src/content/load.ts';
import { aboutSchema, dialogSchema, testimonialsSchema, DIALOG_ASPECTS, DIALOG_STEPS, STAGES, VALUES } from '../../src/content/company-schema.ts';
import { caseStudyImageAlt, caseStudyMeta, caseStudySummary, clip, companyRoutes } from '../../src/routes/company.ts';

const CONTENT = path.resolve('content');
const SLUGS = ['dc-thomson', 'south-of-scotland-enterprise', 'flexible-childcare-services-scotland'];
const SETTINGS = { name: 'Northlight Data', url: 'https://www.example.com' };

let site: Site;
beforeAll(async () => { site = await loadSite(CONTENT); });

async function rawPage(name: string): Promise<Record<string, any>> {
  return parse(await readFile(path.join(CONTENT, 'pages', `${name}.yaml`), 'utf8')) as Record<string, any>;
}

/** The dotted paths of the fields a parse complains about. */
function failingPaths(schema: z.ZodType, data: unknown): string[] {
  const result = schema.safeParse(data);
  return result.success ? [] : result.error.issues.map((i) => i.path.join('.'));
}

function study(overrides: Partial<CaseStudy> = {}): CaseStudy {
  return {
    slug: 'acme-trust',
    client: 'Acme Trust',
    title: 'Tidying the Records of a Small Trust',
    subtitle: 'How we helped a small trust tidy its records so that its reports add up first time.',
    aboutClient: 'A small trust.',
    challenge: 'Messy records.',
    solution: ['Cleaned the records.'],
    results: ['Reports add up.'],
    order: 1,
    ...overrides,
  };
}

describe('company routes', () => {
  it('builds About, DIAlog, Our Work, the list, one page per case study and the not-found page', () => {
    const urls = companyRoutes(site).map((r) => r.url);
    expect(urls).toEqual(['/about', '/dialog', '/testimonials', '/case-studies', ...SLUGS.map((s) => `/case-studies/${s}`), '/case-studies/404']);
  });

  it('answers the case-study not-found page with status 404 from /case-studies/404.html, unindexed', () => {
    const notFound = companyRoutes(site).find((r) => r.template === 'caseStudyNotFound');
    expect(notFound).toMatchObject({ file: '/case-studies/404.html', status: 404, meta: { title: 'Case Study Not Found', noindex: true } });
  });

  it('writes every page at its pretty URL with status 200', () => {
    for (const r of companyRoutes(site).filter((r) => r.template !== 'caseStudyNotFound')) {
      expect(r.status).toBe(200);
      expect(r.file).toBe(`${r.url}.html`);
    }
  });

  it('gives every indexed page a description of 120 to 160 characters', () => {
    for (const r of companyRoutes(site).filter((r) => r.status === 200)) {
      expect(r.meta.description.length, r.url).toBeGreaterThanOrEqual(120);
      expect(r.meta.description.length, r.url).toBeLessThanOrEqual(160);
    }
  });

  it("titles Our Work 'Client Success Stories'", () => {
    expect(companyRoutes(site).find((r) => r.url === '/testimonials')?.meta.title).toBe('Client Success Stories');
  });

  it('passes the same card data, in order, to /testimonials and /case-studies', () => {
    const cards = (url: string) => (companyRoutes(site).find((r) => r.url === url)?.props as { caseStudies: unknown[] }).caseStudies;
    expect(cards('/testimonials')).toEqual(cards('/case-studies'));
    expect((cards('/case-studies') as Array<{ slug: string }>).map((c) => c.slug)).toEqual(SLUGS);
  });

  it('keeps route props plain JSON', () => {
    for (const r of companyRoutes(site)) expect(JSON.parse(JSON.stringify(r.props))).toEqual(r.props);
  });
});

describe('case-study cards', () => {
  it('uses the written alt text of a header image', () => {
    expect(caseStudyImageAlt({ client: 'Acme Trust', headerImageAlt: 'Record cards in tidy rows' })).toBe('Record cards in tidy rows');
  });

  it.each([undefined, '', '   '])('falls back to "<client> case study" when the alt text is %j', (alt) => {
    expect(caseStudyImageAlt({ client: 'Acme Trust', headerImageAlt: alt })).toBe('Acme Trust case study');
  });

  it('links to /case-studies/<slug> and carries an image only when the study has one', () => {
    expect(caseStudySummary(study())).toEqual({
      slug: 'acme-trust', href: '/case-studies/acme-trust', client: 'Acme Trust',
      title: 'Tidying the Records of a Small Trust', subtitle: study().subtitle,
    });
    expect(caseStudySummary(study({ headerImage: '/images/case-acme.svg' })).image).toEqual({ src: '/images/case-acme.svg', alt: 'Acme Trust case study' });
  });
});

describe('case-study meta', () => {
  it('uses the custom title and description when the study has them', () => {
    const meta = caseStudyMeta(study({ metaTitle: 'Acme Trust Case Study: Records', metaDescription: 'A custom description.' }), SETTINGS);
    expect(meta).toMatchObject({ title: 'Acme Trust Case Study: Records', description: 'A custom description.', type: 'article' });
  });

  it('falls back to a generic title and description naming the client', () => {
    const meta = caseStudyMeta(study(), SETTINGS);
    expect(meta.title).toBe('Acme Trust Case Study');
    expect(meta.description).toContain('Acme Trust');
    expect(meta.description.length).toBeLessThanOrEqual(160);
  });

  it('describes the case study as a schema.org Article about the client, at its canonical address', () => {
    expect(caseStudyMeta(study(), SETTINGS).jsonLd?.[0]).toMatchObject({
      '@type': 'Article',
      headline: 'Tidying the Records of a Small Trust',
      about: { '@type': 'Organization', name: 'Acme Trust' },
      url: 'https://www.example.com/case-studies/acme-trust',
    });
  });

  it('gives the three real case studies their custom titles', () => {
    for (const s of site.caseStudies) expect(caseStudyMeta(s, SETTINGS).title).toBe(s.metaTitle);
  });
});

describe('clip', () => {
  it('leaves short text alone and collapses whitespace', () => {
    expect(clip('  short\n text ', 160)).toBe('short text');
  });

  it('cuts long text at a word boundary within the limit, with an ellipsis', () => {
    const out = clip('word '.repeat(60), 50);
    expect(out.length).toBeLessThanOrEqual(50);
    expect(out).toMatch(/word…$/);
  });
});

describe('company content schemas', () => {
  it('accepts the content files as written', async () => {
    expect(failingPaths(aboutSchema, await rawPage('about'))).toEqual([]);
    expect(failingPaths(dialogSchema, await rawPage('dialog'))).toEqual([]);
    expect(failingPaths(testimonialsSchema, await rawPage('testimonials'))).toEqual([]);
  });

  it('holds the fixed names in their fixed order', () => {
    const { about, dialog } = site.pages;
    expect(about.values.items.map((v) => v.title)).toEqual([...VALUES]);
    expect(about.methodology.stages.map((s) => s.title)).toEqual([...STAGES]);
    expect(dialog.steps.items.map((s) => s.title)).toEqual([...DIALOG_STEPS]);
    expect(dialog.aspects.items.map((a) => a.title)).toEqual([...DIALOG_ASPECTS]);
  });

  it('names a misnamed value, a missing stage and a misordered aspect by their paths', async () => {
    const about = await rawPage('about');
    about.values.items[1].title = 'Being Open';
    about.methodology.stages.pop();
    expect(failingPaths(aboutSchema, about)).toEqual(expect.arrayContaining(['values.items.1.title', 'methodology.stages']));

    const dialog = await rawPage('dialog');
    dialog.aspects.items.reverse();
    expect(failingPaths(dialogSchema, dialog)).toContain('aspects.items.0.title');
  });

  it('requires the About headings to carry the words purpose, vision and mission', async () => {
    const about = await rawPage('about');
    about.purpose.heading = 'Why We Exist';
    about.vision.heading = 'Where We Are Heading';
    about.mission.heading = 'Our Missions';
    const result = aboutSchema.safeParse(about);
    expect(result.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      "purpose.heading: must contain the word 'purpose', as the page names the section (e.g. 'Our Purpose')",
      "vision.heading: must contain the word 'vision', as the page names the section (e.g. 'Our Vision')",
      "mission.heading: must contain the word 'mission', as the page names the section (e.g. 'Our Mission')",
    ]);
  });

  it("offers the DIAlog surveys by the names of site.yaml's assessmentForms", async () => {
    const dialog = await rawPage('dialog');
    dialog.cta.surveys[1].form = 'everyone';
    expect(failingPaths(dialogSchema, dialog)).toEqual(['cta.surveys.1.form']);
    expect(site.pages.dialog.cta.surveys.map((s) => s.form)).toEqual(['leaders', 'teams']);
  });

  it('requires exactly seven DIAlog testimonials, each with a role', async () => {
    const dialog = await rawPage('dialog');
    dialog.testimonials.items.pop();
    expect(failingPaths(dialogSchema, dialog)).toContain('testimonials.items');
    const again = await rawPage('dialog');
    delete again.testimonials.items[0].role;
    expect(failingPaths(dialogSchema, again)).toContain('testimonials.items.0.role');
  });

  it("requires Our Work to be titled 'Client Success Stories' and names required fields", async () => {
    const page = await rawPage('testimonials');
    page.title = 'Our Work';
    delete page.cta.heading;
    expect(failingPaths(testimonialsSchema, page)).toEqual(expect.arrayContaining(['title', 'cta.heading']));
  });

  it('rejects an unknown field, so a misspelling cannot pass silently', async () => {
    const about = await rawPage('about');
    about.vision.heding = about.vision.heading;
    expect(failingPaths(aboutSchema, about)).toContain('vision');
  });
});
