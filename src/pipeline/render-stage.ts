// The `render` stage: every route through the templates, each page made into its document, written
// into the staging tree and measured by the thread that rendered it.
import type { Site } from '../content/load.ts';
import type { Route } from '../routes/table.ts';
import type { RenderedPage } from '../render/page.tsx';
import { PageUsesTable, type SharedUses, type StoredPage } from '../render/stored-page.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DOCUMENT_CODE } from '../render/document.ts';
import { INLINE_IMAGE_CODE, INLINE_SVG_BYTES, svgDataUrl } from '../render/inline-image.ts';
import type { DocumentShell, PageResult } from '../render/page-output.ts';
import type { BundleResult } from '../bundle/bundle.ts';
import { pageScripts } from '../bundle/page-scripts.ts';
import type { DocumentFigures } from '../measure/measure.ts';
import type { MarkupFigures } from '../measure/markup.ts';
import type { SizeFigure } from '../measure/summary.ts';
import type { BuildCode } from '../pool/code.ts';
import type { BuildWorkers } from '../pool/build-workers.ts';
import type { BuildCache, KeyedPageJob, PageReads, RouteInputs } from '../cache/build-cache.ts';
import { hashOf } from '../hash.ts';
import type { DistWriter } from './dist-writer.ts';

/** A page once written to dist/: what the images stage and the summary still read; its markup is let go. */
export type WrittenPage = Omit<RenderedPage, 'head' | 'body'>;
/** What every document is made of besides its page, and that as text for the pages' keys. */
export interface DocumentMaker { shell: DocumentShell; inputs: string }

export interface RenderInput {
  site: Site; routes: Route[]; siteInputs: string; now: Date; code: BuildCode; cache: BuildCache; workers: BuildWorkers;
  writer: DistWriter; documents: DocumentMaker; sizes: Map<string, SizeFigure>; markup: DocumentFigures;
}

/**
 * `render`: every route through the templates (bundled fresh; unchanged pages from the cache), each
 * page made into its document, written into the staging tree and measured by the thread that
 * rendered it (a worker, on a large build), which hands back only its figures: the main thread never
 * holds a page's markup. Returns the pages, without their markup, in the routes' order.
 */
export async function renderStage(input: RenderInput): Promise<{ written: WrittenPage[]; documents: number }> {
  const { site, routes, siteInputs, now, code, cache, workers, writer, documents: maker, sizes, markup } = input;
  const ctx = { settings: site.settings, images: site.images, year: now.getUTCFullYear() };
  const order = new Map(routes.map((route, i) => [route, i]));
  const written = new Array<WrittenPage>(routes.length);
  let documents = 0;
  const table = new PageUsesTable(writer);
  // What a document is made of besides its page: a change here remakes every document.
  const shell = hashOf(maker.inputs);
  // The site and shell each kept once in the file list, every page naming them by their index there.
  const shellIndex = writer.share(shell);

  /** What the last build listed about the page at this route's file. */
  const lastAbout = (route: Route) => writer.lastAbout(route.file) as StoredPage | undefined;
  /** A page's site, article body and shell, as its entry in the file list names them. */
  const refs = (inputs: RouteInputs) => ({
    site: writer.share(inputs.site),
    ...(inputs.body === undefined ? {} : { body: inputs.body }),
    shell: shellIndex,
  });
  /** The last build's key for this route, if it was made from the same site and (for an article) the same body. */
  const lastKey = (route: Route, inputs: RouteInputs) => {
    const about = lastAbout(route);
    const same = about && about.body === inputs.body && writer.lastShared(about.site) === inputs.site;
    return same ? writer.lastKey(route.file) : undefined;
  };
  /** A page written (or left standing): its size and figures for the summary, its uses for the images stage. */
  const keepPage = (route: Route, shared: SharedUses, size: SizeFigure) => {
    const page: WrittenPage = { route, islands: shared.islands, images: shared.uses.images, preload: shared.uses.preload };
    sizes.set(route.file, size);
    markup.set(route.file, shared.uses.markup);
    written[order.get(route)!] = page;
  };

  /** The document on disk was made from this very page and shell, and nobody has touched it: it stands. */
  const stands = async (route: Route, key: () => string, inputs: RouteInputs): Promise<boolean> => {
    const about = lastAbout(route);
    if (!about || writer.lastShared(about.shell) !== shell) return false;
    const kept = await writer.keep(route.file, key);
    const shared = kept && table.last(about);
    if (!kept || !shared) return false;
    // Listed again: its uses, site and shell at their places in this build's file list (its key may
    // have been worked out from its props this time).
    const stored = table.stored(shared, { cut: about.cut, ...refs(inputs) });
    writer.add(route.file, { ...kept, about: stored });
    keepPage(route, shared, { raw: kept.size, gzip: kept.gzip! });
    return true;
  };

  /** The pages that do not stand, rendered, made into documents and written by the workers. */
  const make = (
    jobs: KeyedPageJob[],
    read: (job: KeyedPageJob) => Promise<PageReads>,
    settle: (job: KeyedPageJob, output: PageResult) => Promise<void>,
  ) => {
    const withLast = jobs.map((job) => {
      const before = writer.before(job.route.file);
      return { ...job, before, ...table.previousPage(lastAbout(job.route), writer.lastKey(job.route.file), job.key) };
    });
    const made = async (job: KeyedPageJob, out: PageResult) => {
      await settle(job, out);
      // Not made (its article's body was lost from the cache): the cache has thrown it out, and the build runs again.
      if ('lostBody' in out) return;
      documents++;
      const uses = { islands: out.islands, images: out.images, ...(out.preload ? { preload: out.preload } : {}), markup: out.markup };
      const shared = table.made(uses);
      const key = job.key();
      writer.add(job.route.file, { ...out.entry, key, about: table.stored(shared, { cut: out.cut, ...refs(job.inputs) }) });
      keepPage(job.route, shared, { raw: out.entry.size, gzip: out.entry.gzip });
    };
    return workers.pages(withLast, { ctx, shell: maker.shell, trees: writer.siteTrees }, read, made);
  };

  await cache.render(routes, ctx, code.renderHash, { site: siteInputs, last: lastKey }, stands, make);
  return { written, documents };
}

/**
 * Part of `render`: what every page's document is made of besides the page (made in the thread that
 * renders it, see render/page-output.ts).
 */
export function documentMaker(site: Pick<Site, 'settings' | 'images' | 'posts'>, assets: BundleResult, scripts: string[], extraHead: string | undefined, contentDir: string): DocumentMaker {
  const feed = site.posts.length ? { href: '/blog/feed.xml', title: `${site.settings.name} Insights` } : undefined;
  const favicon = site.images['/images/favicon.svg'];
  const urls = smallSvgs(site.images, contentDir);
  const logo = site.settings.logo === undefined ? undefined : site.images[site.settings.logo]?.src;
  const inlineImages = { urls, everyPage: logo !== undefined && urls[logo] !== undefined ? [logo] : [] };
  const shell: DocumentShell = {
    css: assets.css, runtime: assets.runtime, islands: assets.islands, closure: assets.closure,
    favicon, inlineScripts: scripts, extraHead, feed, inlineImages,
  };
  return {
    shell,
    // The functions' own text too: a generator that makes documents differently remakes them all.
    inputs: JSON.stringify([
      DOCUMENT_CODE, String(pageScripts), INLINE_IMAGE_CODE, assets.css, assets.runtime, assets.islands, assets.closure, favicon, scripts, extraHead, feed, inlineImages,
    ]),
  };
}


/** The site's SVGs of at most INLINE_SVG_BYTES, by the file the site serves (`src`), as data: URLs; read from the content folder (`/images/x.svg` is its images/x.svg). */
function smallSvgs(images: Site['images'], contentDir: string): Record<string, string> {
  const small: Record<string, string> = {};
  for (const [key, image] of Object.entries(images)) {
    if (image.source.format !== 'svg' || image.bytes > INLINE_SVG_BYTES) continue;
    small[image.src] = svgDataUrl(readFileSync(path.join(contentDir, key), 'utf8'));
  }
  return small;
}
