// What the CMS's previews draw with beside the entry being edited: the site's settings and images,
// the case studies a service links to, and for each YAML page of the content registry the page that
// shows it, found among the site's own routes (its address, template and the props beside its
// content), and for each folder of entries the page its routes draw an entry as; so that a page or a
// folder added to the registry and its routes is previewed with nothing else to edit.
import type { Route } from '../routes/table.ts';
import { caseStudySummary } from '../routes/company.ts';
import type { Site } from '../content/load.ts';
import type { FolderPreview, PagePreview, PreviewContext } from './client/preview-types.ts';

const isObject = (v: unknown): v is object => !!v && typeof v === 'object';

/** For each page, the first route that shows its content (the file, or one of its parts, passed as a prop). */
export function pagePreviews(pages: Record<string, unknown>, all: readonly Route[]): Record<string, PagePreview> {
  const out: Record<string, PagePreview> = {};
  for (const [name, content] of Object.entries(pages)) {
    if (!isObject(content)) continue;
    const parts = Object.entries(content).filter(([, v]) => isObject(v));
    for (const route of all) {
      if (route.status !== 200) continue;
      const props = { ...(route.props as Record<string, unknown>) };
      const fill: PagePreview['fill'] = [];
      for (const [prop, value] of Object.entries(props)) {
        const field = value === content ? undefined : parts.find(([, v]) => v === value)?.[0];
        if (value !== content && field === undefined) continue;
        fill.push(field === undefined ? [prop] : [prop, field]);
        delete props[prop];
      }
      if (fill.length) { out[name] = { url: route.url, template: route.template, props, fill }; break; }
    }
  }
  return out;
}

/** For each folder, the first route that shows one of its entries whole, as a prop: the page every entry of the folder is drawn as. */
export function folderPreviews(folders: Record<string, ReadonlyArray<{ slug: string }>>, all: readonly Route[]): Record<string, FolderPreview> {
  const out: Record<string, FolderPreview> = {};
  for (const [name, entries] of Object.entries(folders)) {
    const mine = new Set<unknown>(entries);
    for (const route of all) {
      if (route.status !== 200) continue;
      const props = { ...(route.props as Record<string, unknown>) };
      const prop = Object.keys(props).find((k) => mine.has(props[k]));
      if (prop === undefined) continue;
      const { slug } = props[prop] as { slug: string };
      delete props[prop];
      out[name] = { base: route.url.endsWith(`/${slug}`) ? route.url.slice(0, -slug.length) : `${route.url}/`, template: route.template, props, prop };
      break;
    }
  }
  return out;
}

export function previewContext(site: Site, routes: readonly Route[], now: Date): PreviewContext {
  return {
    settings: site.settings,
    images: site.images,
    year: now.getUTCFullYear(),
    studyCta: site.pages['case-studies'].studyCta,
    studies: site.caseStudies.map(caseStudySummary),
    pages: pagePreviews(site.pages, routes),
    folders: folderPreviews(site.collections, routes),
  };
}
