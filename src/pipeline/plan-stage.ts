// After `load`, untimed: the site as published at the build's clock, its routes, each page's share
// card named (before any page renders, since the head links to it), and the routing table.
import type { Site } from '../content/load.ts';
import { publishedSite, type Published } from '../content/published.ts';
import { ContentErrors } from '../content/errors.ts';
import { routes as routeTable, type Route } from '../routes/table.ts';
import { routingTable } from '../routes/routing-table.ts';
import { cmsHosts, cmsPages } from '../cms/admin-page.ts';
import type { RoutingTable } from '../url-resolution/resolve.ts';
import { checkedStore, type Entry } from '../url-resolution/store-data.ts';
import { planCards, type CardJob } from '../cards/plan.ts';
import { cardFontsHash } from '../cards/fonts.ts';
import { engineVersions } from '../cards/engine.ts';
import type { BuildCode } from '../pool/code.ts';
import { hashOf } from '../hash.ts';
import { breathe } from '../concurrency.ts';

/**
 * The site as published at the build's clock, the one place articles are left out (drafts,
 * scheduled, expired), so no later stage can forget to; a preview keeps drafts and scheduled ones, marked.
 * A link from live content to an article left out stops a production build.
 */
export function publishStage(site: Site, now: Date, preview: boolean): Published {
  const published = publishedSite(site, now, preview ? 'preview' : 'production');
  if (published.unpublishedLinks.length && !preview) throw new ContentErrors(published.unpublishedLinks);
  return published;
}

export interface Plan extends Published {
  /** The hash of the card code, its fonts and engine: the cards' cache folder and part of every page's key. */
  cardsCode: string;
  routes: Route[];
  cardJobs: CardJob[];
  table: RoutingTable;
  /** The routing table's entries for the CloudFront KeyValueStore, with their figures. */
  store: ReturnType<typeof checkedStore>;
}

/**
 * The published site, its routes with their cards named, and the routing table, checked against the
 * store's limits. Each piece holds the thread a tenth of a second at 10,000 articles: a turn of the
 * event loop between them (`site serve` answers saves meanwhile).
 */
export async function planStage(loaded: Site, code: BuildCode, run: { now: Date; preview: boolean; contentDir: string; previousStore?: Entry[] }): Promise<Plan> {
  const published = publishStage(loaded, run.now, run.preview);
  const cardsCode = hashOf(code.cardsHash, cardFontsHash(), engineVersions());
  await breathe();
  const table = routeTable(published.site);
  await breathe();
  const { routes, jobs: cardJobs } = planCards(published.site, table, run.contentDir, cardsCode);
  await breathe();
  // The content manager's page is no route (no template, not in the sitemap), but is routed as one.
  const routing = routingTable(routes, cmsPages(loaded.settings), cmsHosts(loaded.settings));
  await breathe();
  // Before any page renders: a table the CloudFront KeyValueStore would refuse stops the build (StoreLimitError).
  const store = checkedStore(routing, run.previousStore);
  return { ...published, cardsCode, routes, cardJobs, table: routing, store };
}
