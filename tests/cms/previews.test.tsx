// Every kind of entry the CMS edits has a preview drawn by the site's own templates: each folder
// collection and each file names one the client has, and each YAML page of the content registry is
// drawn by the template its route uses, from the file as the CMS holds it.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderToStaticMarkup } from 'react-dom/server';
import { cmsConfig, contentKinds } from '../../src/cms/config.ts';
import { caseStudySchema } from '../../src/content/schemas.ts';
import { previewContext } from '../../src/cms/preview-context.ts';
import { previewTemplates, type PreviewContext } from '../../src/cms/client/previews.tsx';
import { loadSite, type Site } from '../../src/content/load.ts';
import { routes, type Route } from '../../src/routes/table.ts';
import { pageSchemas } from '../../src/content/pages.ts';
import { readYaml } from '../../src/content/yaml.ts';
import { readFrontMatter } from '../../src/content/front-matter.ts';
import { render } from '../../src/render/server-entry.tsx';

const config = cmsConfig({ categories: [] });
let site: Site;
let all: Route[];
let ctx: PreviewContext;

beforeAll(async () => {
  site = await loadSite(path.resolve('content'));
  all = routes(site);
  ctx = previewContext(site, all, new Date('2026-11-29T12:00:00Z'));
});

/** The file as the CMS holds it (its YAML, or its front matter and body), drawn by its preview. */
async function preview(collection: string, name: string, file: string, template: string): Promise<string> {
  const text = await readFile(file, 'utf8');
  const data = file.endsWith('.md') ? { ...(readFrontMatter(text, file).data as object), body: readFrontMatter(text, file).body } : readYaml(text, file).data;
  const entry = { get: (k: string) => ({ slug: name, data, collection })[k], getIn: () => undefined };
  return renderToStaticMarkup(<>{previewTemplates[template]!({ entry, getAsset: () => undefined, ctx })}</>);
}

const headings = (html: string) => [...html.matchAll(/<h([12])[^>]*>([\s\S]*?)<\/h\1>/g)].map((m) => m[2]!.replace(/<[^>]+>/g, '').trim());
const main = (html: string) => /<main[\s\S]*<\/main>/.exec(html)?.[0] ?? '';

describe('the CMS previews', () => {
  it('gives every collection and every file of the config a preview the client draws', () => {
    const missing: string[] = [];
    for (const c of config.collections) {
      if (c.folder && !(c.preview && previewTemplates[c.preview])) missing.push(c.name);
      for (const f of c.files ?? []) if (!(f.preview && previewTemplates[f.preview])) missing.push(`${c.name}/${f.name}`);
    }
    expect(missing).toEqual([]);
  });

  it("draws each YAML page and legal page in its route's template, with the headings the built page has", async () => {
    const pages = config.collections.filter((c) => c.name === 'pages' || c.name === 'legal').flatMap((c) => c.files!.map((f) => ({ ...f, collection: c.name })));
    expect(Object.keys(ctx.pages ?? {}).sort()).toEqual(Object.keys(pageSchemas).sort());
    for (const f of pages) {
      const html = await preview(f.collection, f.name, f.file, f.preview!);
      const url = f.preview === 'legal' ? `/${f.name}` : ctx.pages![f.name]!.url;
      const route = all.find((r) => r.url === url)!;
      expect(route, f.name).toBeDefined();
      // The page the build draws for the route, from the content the build loaded.
      const built = render(route, { settings: site.settings, images: site.images, url: route.url, year: ctx.year }).body;
      expect(headings(main(html)).length, f.name).toBeGreaterThan(0);
      expect(headings(main(html)), f.name).toEqual(headings(main(built)));
    }
  });

  it('draws the site settings around a page, with the settings being edited', async () => {
    const html = await preview('site', 'site', 'content/site.yaml', 'site');
    expect(html).toContain(site.settings.officeHours);
    const changed = { get: (k: string) => ({ slug: 'site', collection: 'site', data: { ...site.settings, officeHours: 'Mon–Thu 10am to 4pm' } })[k], getIn: () => undefined };
    expect(renderToStaticMarkup(<>{previewTemplates.site!({ entry: changed, getAsset: () => undefined, ctx })}</>)).toContain('Mon–Thu 10am to 4pm');
  });

  it('draws an entry of a folder added to the registry as its routes draw the folder, with nothing else added', () => {
    // A folder of events whose routes give each event a page drawn by the case study template.
    const [first] = site.caseStudies;
    const event = { ...first!, slug: 'data-day', title: 'Data Day 2026' };
    const shown = all.find((r) => r.template === 'caseStudy')!;
    const eventRoute = { ...shown, url: '/events/data-day', file: '/events/data-day.html', props: { ...shown.props, study: event } } as Route;
    const withEvents = cmsConfig({ categories: [] }, { ...contentKinds, folders: { ...contentKinds.folders, events: caseStudySchema } });
    const events = withEvents.collections.find((c) => c.name === 'events')!;
    const eventsCtx = previewContext({ ...site, collections: { ...site.collections, events: [event] } } as Site, [...all, eventRoute], new Date('2026-11-29T12:00:00Z'));
    const entry = { get: (k: string) => ({ slug: 'ai-day', collection: 'events', data: { ...event, slug: undefined, title: 'AI Day, as typed' } })[k], getIn: () => undefined };
    const html = renderToStaticMarkup(<>{previewTemplates[events.preview!]!({ entry, getAsset: () => undefined, ctx: eventsCtx })}</>);
    expect(headings(main(html))).toContain('AI Day, as typed');
  });
});
