import path from 'node:path';
import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it, beforeAll } from 'vitest';
import { parse } from 'yaml';
import { loadSite, type Site } from '../../src/content/load.ts';
import { serviceSchema, servicesOverviewSchema, DIMENSIONS } from '../../src/content/services-schema.ts';
import { caseStudyTeaser, serviceJsonLd, servicesRoutes } from '../../src/routes/services.ts';
import { faqPageJsonLd } from '../../src/render/structured-data.ts';
import type { Service } from '../../templates/pages/services/ServicePage.tsx';

const CONTENT = path.resolve('content');
/** The services the product names, in its order (the order test checks this list; every other test reads content/services/). */
const SLUGS = ['data-visualisation', 'data-governance', 'data-integration', 'data-cleaning', 'data-infrastructure', 'data-literacy'];

let site: Site;
beforeAll(async () => { site = await loadSite(CONTENT); });

const service = (slug: string): Service => {
  const found = site.collections.services.find((s) => s.slug === slug);
  if (!found) throw new Error(`no service ${slug}`);
  return found;
};

async function rawService(slug: string): Promise<Record<string, unknown>> {
  return parse(await readFile(path.join(CONTENT, 'services', `${slug}.yaml`), 'utf8')) as Record<string, unknown>;
}

/** The dotted paths of the fields a parse complains about. */
function failingPaths(schema: typeof serviceSchema | typeof servicesOverviewSchema, data: unknown): string[] {
  const result = schema.safeParse(data);
  return result.success ? [] : result.error.issues.map((i) => i.path.join('.'));
}

describe('services routes', () => {
  it('builds the overview and the six service pages, in their fixed order', () => {
    const urls = servicesRoutes(site).map((r) => r.url);
    expect(urls).toEqual(['/services', ...SLUGS.map((s) => `/services/${s}`)]);
  });

  it('heads the analytics-and-reporting page "Data Visualisation Services"', () => {
    expect(service('data-visualisation').hero.heading).toBe('Data Visualisation Services');
  });

  it('links each teaser to its own case study', () => {
    const expected: Record<string, string> = {
      'data-cleaning': 'dc-thomson',
      'data-infrastructure': 'flexible-childcare-services-scotland',
      'data-literacy': 'south-of-scotland-enterprise',
    };
    for (const [slug, study] of Object.entries(expected)) expect(caseStudyTeaser(service(slug), site).slug).toBe(study);
    for (const { slug } of site.collections.services) expect(site.caseStudies.map((s) => s.slug)).toContain(caseStudyTeaser(service(slug), site).slug);
  });

  it('takes the teaser text from the case study itself', () => {
    const teaser = caseStudyTeaser(service('data-cleaning'), site);
    const study = site.caseStudies.find((s) => s.slug === 'dc-thomson');
    expect(teaser).toMatchObject({ client: study?.client, title: study?.title, subtitle: study?.subtitle });
  });

  it('names the file and field when a service points at a missing case study', () => {
    const broken = { ...service('data-governance'), caseStudy: { ...service('data-governance').caseStudy, slug: 'no-such-study' } };
    expect(() => caseStudyTeaser(broken, site)).toThrow(/content\/services\/data-governance\.yaml caseStudy\.slug: no case study "no-such-study"/);
  });

  it('gives the literacy page the assessment hero, the six dimensions and its own form heading', () => {
    const literacy = service('data-literacy');
    expect(literacy.hero.action).toBe('assessment');
    expect(literacy.contactHeading).toBe('Or Get in Touch Directly');
    expect(literacy.assessment?.dimensions.map((d) => d.title)).toEqual([...DIMENSIONS]);
    for (const slug of SLUGS.filter((s) => s !== 'data-literacy')) {
      expect(service(slug).hero.action).toBe('consultation');
      expect(service(slug).contactHeading).toBe('Get in Touch');
    }
  });

  it('quotes the typical timelines on the visualisation page', () => {
    expect(service('data-visualisation').timelines?.items.map((t) => t.duration)).toEqual(['2-4 weeks', '2-6 months']);
  });

  it('describes every page in 120 to 160 characters', () => {
    for (const route of servicesRoutes(site)) {
      expect(route.meta.description.length, route.url).toBeGreaterThanOrEqual(120);
      expect(route.meta.description.length, route.url).toBeLessThanOrEqual(160);
    }
  });
});

describe('services structured data', () => {
  it('describes a Service offered by the site organisation across the UK', () => {
    const ld = serviceJsonLd(service('data-cleaning'), site.settings);
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Service',
      name: 'Data Cleaning and Standardisation Services',
      url: `${site.settings.url}/services/data-cleaning`,
      provider: { '@type': 'Organization', name: site.settings.name, url: site.settings.url },
      areaServed: 'United Kingdom',
    });
  });

  it('turns the questions into an FAQPage, one Question with an Answer each', () => {
    const ld = faqPageJsonLd([{ question: 'Q1?', answer: 'A1.' }, { question: 'Q2?', answer: 'A2.' }]);
    expect(ld).toEqual({
      '@context': 'https://schema.org',
      '@type': 'FAQPage',
      mainEntity: [
        { '@type': 'Question', name: 'Q1?', acceptedAnswer: { '@type': 'Answer', text: 'A1.' } },
        { '@type': 'Question', name: 'Q2?', acceptedAnswer: { '@type': 'Answer', text: 'A2.' } },
      ],
    });
  });

  it('gives each service page a Service, and the five questions it shows for its FAQPage', () => {
    for (const route of servicesRoutes(site).slice(1)) {
      expect(route.meta.jsonLd?.map((d) => d['@type']), route.url).toEqual(['Service']);
      expect(route.meta.faq, route.url).toEqual((route.props as { service: Service }).service.faq.items);
      expect(route.meta.faq, route.url).toHaveLength(5);
    }
  });
});

describe('services content schema', () => {
  it('accepts every service file as written', async () => {
    const files = (await readdir(path.join(CONTENT, 'services'))).filter((f) => f.endsWith('.yaml'));
    expect(files.length).toBe(site.collections.services.length);
    for (const file of files) expect(failingPaths(serviceSchema, await rawService(file.slice(0, -'.yaml'.length))), file).toEqual([]);
  });

  it('names each missing required field', async () => {
    const data = await rawService('data-cleaning');
    for (const field of ['name', 'summary', 'metaTitle', 'metaDescription', 'hero', 'challenge', 'approach', 'benefits', 'tools', 'caseStudy', 'faq']) {
      const { [field]: _gone, ...rest } = data;
      expect(failingPaths(serviceSchema, rest), field).toContain(field);
    }
  });

  it('requires exactly five FAQ items', async () => {
    const data = await rawService('data-cleaning');
    const faq = data.faq as { heading: string; items: unknown[] };
    expect(failingPaths(serviceSchema, { ...data, faq: { ...faq, items: faq.items.slice(0, 4) } })).toContain('faq.items');
  });

  it('requires the four stages in order', async () => {
    const data = await rawService('data-cleaning');
    const approach = data.approach as { stages: Array<{ name: string; text: string }> };
    const swapped = [approach.stages[1], approach.stages[0], ...approach.stages.slice(2)];
    expect(failingPaths(serviceSchema, { ...data, approach: { ...approach, stages: swapped } })).toContain('approach.stages');
  });

  it('rejects a meta description outside 120 to 160 characters, and unknown fields', async () => {
    const data = await rawService('data-cleaning');
    expect(failingPaths(serviceSchema, { ...data, metaDescription: 'Too short.' })).toContain('metaDescription');
    expect(failingPaths(serviceSchema, { ...data, metaDescripton: 'typo' })).toEqual(['']);
  });

  it('only allows the two wordings of the form heading', async () => {
    const data = await rawService('data-cleaning');
    expect(failingPaths(serviceSchema, { ...data, contactHeading: 'Contact us' })).toContain('contactHeading');
  });

  it('accepts the overview page as written', async () => {
    const data = parse(await readFile(path.join(CONTENT, 'pages', 'services.yaml'), 'utf8'));
    expect(failingPaths(servicesOverviewSchema, data)).toEqual([]);
  });
});
