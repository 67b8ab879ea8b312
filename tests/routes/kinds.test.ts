// The registry of kinds of page (src/routes/kinds.ts) is the one list: the site's routes, the
// templates the render stage and the CMS draw with, and the content each kind draws all come from
// it, and a drift between them is caught here, naming the kind.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { loadSite, type Site } from '../../src/content/load.ts';
import { caseStudySchema } from '../../src/content/schemas.ts';
import { collectionSchemas, legalPages, pageSchemas } from '../../src/content/pages.ts';
import { pageKinds, templateModules, type PageKind } from '../../src/routes/kinds.ts';
import { routes } from '../../src/routes/table.ts';
import { routeMakers } from '../../src/routes/route.ts';
import { caseStudyImageAlt } from '../../src/routes/company.ts';
import { templatesOf } from '../../src/routes/template-map.ts';
import { PAGE_TEMPLATES, pageTemplatesSource, writePageTemplates } from '../../src/bundle/page-templates.ts';
import { codeBuildOptions } from '../../src/pool/code.ts';
import { cmsConfig, contentKinds } from '../../src/cms/config.ts';
import { previewContext } from '../../src/cms/preview-context.ts';
import type { templates as CompanyTemplates } from '../../templates/pages/company/index.ts';

const ROOT = path.resolve('.');
let site: Site;
let scratch: string;

beforeAll(async () => {
  site = await loadSite(path.resolve('content'));
  // Inside the project, so that the bundle's imports of React resolve from its node_modules.
  scratch = await mkdtemp(path.join(ROOT, '.site', 'kinds-test-'));
});
afterAll(async () => { if (scratch) await rm(scratch, { recursive: true, force: true }); });

/** Each kind's routes that name a template its own templates module does not export. */
async function strayRoutes(kinds: Record<string, PageKind>): Promise<string[]> {
  const out: string[] = [];
  for (const [kind, { routes: routesOf, templates: file }] of Object.entries(kinds)) {
    const module = (await import(path.resolve(ROOT, file))) as { templates?: Record<string, unknown> };
    for (const route of routesOf(site)) {
      if (!module.templates || !(route.template in module.templates)) out.push(`${kind}: a route names "${route.template}", which ${file} does not export`);
    }
  }
  return out;
}

/** The content files the load reads (and /admin edits) that no kind names among what it draws, and those two kinds name. */
function contentDrift(kinds: Record<string, PageKind>, content = { pages: [...Object.keys(pageSchemas), ...legalPages], folders: Object.keys(collectionSchemas) }): string[] {
  const drawnBy = (list: 'pages' | 'folders', name: string) => Object.entries(kinds).filter(([, k]) => (k.content[list] as readonly string[] | undefined)?.includes(name)).map(([kind]) => kind);
  return (['pages', 'folders'] as const).flatMap((list) => content[list].flatMap((name) => {
    const by = drawnBy(list, name);
    const file = list === 'pages' ? `content/pages/${name}` : `content/${name}/`;
    return by.length === 1 ? [] : [by.length ? `${file} is drawn by ${by.join(' and ')}: one kind draws it` : `${file} is read and edited in /admin, but no kind of page draws it`];
  }));
}

describe('the registry of kinds of page', () => {
  it("gives every kind a templates module that exports `templates`, and every route a template of its own kind's module", async () => {
    expect(Object.keys(pageKinds).length).toBeGreaterThan(0);
    expect(await writePageTemplates(ROOT, templateModules()).then(() => 'written', (e: Error) => e.message)).toBe('written');
    expect(await strayRoutes(pageKinds)).toEqual([]);
    // One map of them all, no name given twice.
    const byKind = Object.fromEntries(await Promise.all(Object.entries(templateModules()).map(async ([kind, file]) => [kind, { file, module: await import(path.resolve(ROOT, file)) }])));
    expect(Object.keys(templatesOf(byKind)).sort()).toEqual([...new Set(routes(site).map((r) => r.template))].sort());
  });

  it('makes the routes of each kind, in the order of the registry', () => {
    expect(routes(site)).toEqual(Object.values(pageKinds as Record<string, PageKind>).flatMap((k) => k.routes(site)));
    expect(routes(site).at(0)?.url).toBe('/');
    expect(routes(site).at(-1)?.url).toBe('/404');
  });

  it('has every content file the load reads drawn by exactly one kind', () => {
    expect(contentDrift(pageKinds)).toEqual([]);
    // A folder added to the content with no kind drawing it, and a page two kinds claim, are named.
    const claimed = { ...pageKinds, twice: { content: { pages: ['home'] }, routes: () => [], templates: 'templates/pages/Home.tsx' } } as Record<string, PageKind>;
    expect(contentDrift(claimed, { pages: ['home'], folders: ['events'] })).toEqual([
      'content/pages/home is drawn by home and twice: one kind draws it',
      'content/events/ is read and edited in /admin, but no kind of page draws it',
    ]);
  });

  it('names the kind whose templates module is missing, or exports no templates, or gives a name another kind gives', async () => {
    await expect(writePageTemplates(ROOT, { ...templateModules(), events: 'templates/pages/events/index.ts' }))
      .rejects.toThrow('the page kind "events" names its templates module templates/pages/events/index.ts, which does not exist');
    const company = { file: 'templates/pages/company/index.ts', module: await import('../../templates/pages/company/index.ts') };
    expect(() => templatesOf({ company, events: { file: 'templates/pages/events.ts', module: {} } }))
      .toThrow('the page kind "events": templates/pages/events.ts exports no `templates`');
    expect(() => templatesOf({ company, events: { file: 'templates/pages/events.ts', module: { templates: { caseStudy: () => null } } } }))
      .toThrow('the template "caseStudy" is given by two kinds of page, "company" and "events"');
  });

  it('takes a kind added to it, with nothing else edited: its routes are made, the render stage draws them with its templates, and /admin lists its folder', async () => {
    // An events folder, each event drawn by a template of the events kind's own module (here the case study's page).
    const eventsModule = path.join(scratch, 'events-templates.ts');
    await writeFile(eventsModule, `import { CaseStudyPage } from ${JSON.stringify(path.join(ROOT, 'templates/pages/company/CaseStudyPage.tsx'))};\nexport const templates = { event: CaseStudyPage };\n`);
    const [first] = site.caseStudies;
    const event = { ...first!, slug: 'data-day', title: 'Data Day 2026' };
    const eventPage = routeMakers<{ event: (typeof CompanyTemplates)['caseStudy'] }>().page;
    const events: PageKind = {
      content: { folders: ['events' as keyof typeof collectionSchemas] },
      routes: (s) => ((s.collections as unknown as Record<string, typeof event[] | undefined>).events ?? []).map((e) => eventPage(`/events/${e.slug}`, 'event', { study: e, imageAlt: caseStudyImageAlt(e), cta: s.pages['case-studies'].studyCta }, { title: e.title, description: e.subtitle })),
      templates: path.relative(ROOT, eventsModule),
    };
    const kinds = { ...pageKinds, events };
    const withEvents = { ...site, collections: { ...site.collections, events: [event] } } as Site;

    const made = routes(withEvents, kinds);
    const route = made.find((r) => r.url === '/events/data-day');
    expect(route?.template).toBe('event');
    expect(await strayRoutes(kinds)).toEqual([]);

    // The render stage's code bundled as a build bundles it, from the registry with the new kind.
    const templatesFile = path.join(scratch, 'page-templates.mjs');
    await writeFile(templatesFile, pageTemplatesSource(ROOT, templateModules(kinds)));
    const options = codeBuildOptions(ROOT);
    await build({ ...options, entryPoints: { render: 'src/render/server-entry.tsx' }, outdir: scratch, write: true, alias: { ...options.alias, [PAGE_TEMPLATES]: templatesFile } });
    const { render } = (await import(path.join(scratch, 'render.mjs'))) as typeof import('../../src/render/server-entry.tsx');
    const html = render(route!, { settings: site.settings, images: site.images, url: route!.url, year: 2026 }).body;
    expect(html).toMatch(/<h1[^>]*>[^<]*Data Day 2026/);

    // The content manager lists the folder of the kind's content, and previews an entry with the kind's template.
    const config = cmsConfig({ categories: [] }, { ...contentKinds, folders: { ...contentKinds.folders, events: caseStudySchema } });
    expect(config.collections.find((c) => c.name === 'events')).toMatchObject({ folder: 'content/events', preview: 'folder' });
    expect(previewContext(withEvents, made, new Date('2026-11-29T12:00:00Z')).folders?.events).toMatchObject({ template: 'event', base: '/events/' });
  });
});
