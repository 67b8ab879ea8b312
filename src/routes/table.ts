import type { SiteContent } from '../content/load.ts';
import { pageKinds, type PageKind, type Route } from './kinds.ts';

export type { Route, TemplateName } from './kinds.ts';

/**
 * Every URL of the site: a pure function of the content, each kind's routes in the registry's
 * order. Build, sitemap, serve and the CDN read this list.
 */
export function routes(site: SiteContent, kinds: Record<string, Pick<PageKind, 'routes'>> = pageKinds): Route[] {
  return Object.values(kinds).flatMap((kind) => kind.routes(site) as Route[]);
}
