// Where each entry the content manager edits is on the site, as Decap's `preview_path`: View Preview
// (a draft's preview on the web) and View Live then open the entry's own page rather than the home
// page. Found among the site's own routes, as the previews' context finds a page's route: a folder's
// entry is the route whose address ends with its slug, a page the first route that shows its content.
import type { Route } from '../routes/table.ts';
import type { Site } from '../content/load.ts';
import { pagePreviews } from './preview-context.ts';

export interface PreviewPaths {
  /** By folder collection (`blog`, `case-studies`, …): a template such as `blog/{{slug}}`. */
  folders: Record<string, string>;
  /** By file collection and file (`pages/about`, `legal/privacy-policy`, `site/site`): the page's address, without its leading slash ('' for the home page). */
  files: Record<string, string>;
}

export function previewPaths(site: Site, routes: readonly Route[]): PreviewPaths {
  const pages = routes.filter((r) => r.status === 200);
  const at = (slug: string) => pages.find((r) => r.url.endsWith(`/${slug}`))?.url;
  const folders: Record<string, string> = {};
  for (const [name, entries] of Object.entries({ blog: site.posts, ...site.collections } as Record<string, ReadonlyArray<{ slug: string }>>)) {
    const slug = entries.find((e) => at(e.slug) !== undefined)?.slug;
    if (slug !== undefined) folders[name] = `${at(slug)!.slice(1, -slug.length)}{{slug}}`;
  }
  const files: Record<string, string> = { 'site/site': '' };
  for (const [name, preview] of Object.entries(pagePreviews(site.pages, routes))) files[`pages/${name}`] = preview.url.slice(1);
  for (const slug of Object.keys(site.legal)) {
    const url = at(slug);
    if (url !== undefined) files[`legal/${slug}`] = url.slice(1);
  }
  return { folders, files };
}
