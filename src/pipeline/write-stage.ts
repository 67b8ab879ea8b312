// The `write` stage's work: files into the staging tree a bounded number at a time, the assets and
// cards written while pages render, then the rest of dist/ and deploy/ once they have.
import path from 'node:path';
import type { BuildSession } from './session.ts';
import { CACHE_DIR } from '../output/layout.ts';
import type { BundleResult } from '../bundle/bundle.ts';
import type { BuiltCards } from '../cards/card-cache.ts';
import { CARDS_FILE } from '../cards/plan.ts';
import { IO_CONCURRENCY, mapLimit, turnTaker } from '../concurrency.ts';
import type { Site } from '../content/load.ts';
import { HEADERS_FILE, headersFile } from '../response-headers.ts';
import type { BuiltImages } from './image-stage.ts';
import type { SizeFigure } from '../measure/summary.ts';
import { atomFeed, robotsTxt, sitemapXml } from '../render/feeds.ts';
import { viewerRequestFunction, viewerResponseFunction } from '../url-resolution/cloudfront-functions.ts';
import { checkFunctionsInNjsOnce, NO_NJS } from '../url-resolution/njs-check.ts';
import type { RoutingTable } from '../url-resolution/resolve.ts';
import { STORE_DATA_FILE, storeDataFile, type Entry } from '../url-resolution/store-data.ts';
import type { Route } from '../routes/table.ts';
import { writeDeployFiles, type DistFile, type DistWriter } from './dist-writer.ts';

/** The blog's Atom feed in the output: the one file that changes with every build (it says when it was built). */
export const FEED_FILE = '/blog/feed.xml';

/** Files into the staging tree, a bounded number at a time; the raw and gzip size of those measured goes into `sizes`. */
export async function writeFiles(writer: DistWriter, sizes: Map<string, SizeFigure>, files: DistFile[]): Promise<void> {
  // A write is synchronous, and a thousand share cards in a row held the event loop for a quarter of a second.
  const turn = turnTaker();
  await mapLimit(files, IO_CONCURRENCY, async (f) => {
    await turn();
    const size = await writer.write(f);
    if (size) sizes.set(f.file, size);
  });
}

/**
 * The bundled assets and the share cards, written while the pages render: the workers render and
 * write the pages, and the main thread would otherwise wait for them with nothing to do.
 */
export function sideFiles(assets: BundleResult, cards: BuiltCards): DistFile[] {
  return [
    ...Object.entries(assets.files).map(([file, contents]) => ({ file, contents, measure: true })),
    ...[...cards.files].map(([file, from]) => ({ file, from, sha256: cards.digests.get(file) })),
  ];
}

/**
 * `write`, its second part: the rest of dist/ (images, sitemap, robots, feed; unchanged files left alone, stale ones
 * deleted), then deploy/ (routing table, the store's entries, CDN functions, headers). The raw and gzip size of each asset
 * goes into `sizes`, for the summary.
 */
export async function writeStage(root: string, deployDir: string, input: {
  writer: DistWriter; sizes: Map<string, SizeFigure>; site: Site; routes: Route[]; table: RoutingTable; images: BuiltImages; scripts: string[]; now: Date; session?: BuildSession; fresh: boolean;
  /** The routing table's entries for the CloudFront KeyValueStore, checked against its limits (store-data.ts). */
  store: Entry[];
  /** Where the one line goes that says the functions were not run in njs (it is not installed). */
  warn?: (line: string) => void;
}): Promise<void> {
  const { writer, sizes, site, routes, table, images, scripts, now, session, fresh } = input;
  const cacheDir = path.join(root, CACHE_DIR);
  const feed = atomFeed(site, now);
  await writeFiles(writer, sizes, [
    ...[...images.files].map(([file, from]) => ({ file, from })),
    { file: '/sitemap.xml', contents: sitemapXml(site, routes) },
    { file: '/robots.txt', contents: robotsTxt(site) },
    ...(feed ? [{ file: FEED_FILE, contents: feed }] : []),
  ]);
  await writer.finish();
  // The CDN functions hold no page (the store does): bundled by esbuild once, serve reuses them while the code stays the same.
  const tableJson = JSON.stringify(table, null, 2) + '\n';
  const reused = !fresh && session?.cdn;
  const cdn = reused ? session.cdn! : { table: tableJson, request: await viewerRequestFunction(root, cacheDir), response: await viewerResponseFunction(root, cacheDir) };
  // Functions made afresh run in njs over a handful of routes (a FunctionRuntimeError where one throws or answers otherwise than serve),
  // unless the same functions passed over the same entries before.
  if (!reused && !(await checkFunctionsInNjsOnce(cdn, input.store, cacheDir))) input.warn?.(NO_NJS);
  if (session) session.cdn = cdn;
  const functions = { 'cloudfront/viewer-request.js': cdn.request, 'cloudfront/viewer-response.js': cdn.response, [STORE_DATA_FILE]: storeDataFile(input.store) };
  await writeDeployFiles(deployDir, {
    'routing.json': tableJson,
    ...functions,
    [HEADERS_FILE]: JSON.stringify(headersFile(site.settings, scripts), null, 2) + '\n',
    // Each page's share card, for serve's preview (/__site/card/<page>).
    [CARDS_FILE]: JSON.stringify(Object.fromEntries(routes.flatMap((r) => (r.meta.shareImage ? [[r.url, r.meta.shareImage.src]] : []))), null, 2) + '\n',
  });
}
