import { renderToString, renderToStaticMarkup } from 'react-dom/server';
import type { ComponentType } from 'react';
import type { Route } from '../routes/table.ts';
import type { PageMeta } from '../routes/meta.ts';
import { structuredData } from './structured-data.ts';
import { absoluteUrl } from '../url-resolution/absolute-url.ts';
import { SiteContext, type RenderContext } from '../page-api/site-context.tsx';
import { IslandCollector, IslandCollectorContext, type PageIslands } from '../page-api/island.tsx';
import { ImageCollector, ImageCollectorContext } from '../page-api/images.ts';
import type { ImagePreload, ImageUse } from '../images/picture.ts';

export interface RenderedPage {
  route: Route;
  head: string;
  body: string;
  islands: PageIslands;
  /** The images the page shows, and the preload of its LCP image if it has one. */
  images: ImageUse[];
  preload?: ImagePreload;
}


function Head({ meta, route, ctx }: { meta: PageMeta; route: Route; ctx: RenderContext }) {
  const { settings, images } = ctx;
  const title = route.url === '/' ? meta.title : `${meta.title} | ${settings.name}`;
  const canonical = absoluteUrl(settings.url, route.url);
  // The page's share card; a route made without one (a test's, say) shares its image file as before.
  const fallback = images[meta.image ?? '/images/og-default.png'] ?? images['/images/og-default.png'];
  const img = meta.shareImage ?? (fallback && { src: fallback.src, width: fallback.width, height: fallback.height, alt: undefined, type: undefined });
  const imageUrl = img && absoluteUrl(settings.url, img.src);
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={meta.description} />
      {meta.noindex ? <meta name="robots" content="noindex" /> : <link rel="canonical" href={canonical} />}
      <meta property="og:site_name" content={settings.name} />
      <meta property="og:locale" content="en_GB" />
      <meta property="og:type" content={meta.type ?? 'website'} />
      <meta property="og:title" content={meta.title} />
      <meta property="og:description" content={meta.description} />
      {!meta.noindex && <meta property="og:url" content={canonical} />}
      {img && <meta property="og:image" content={imageUrl} />}
      {img?.type && <meta property="og:image:type" content={img.type} />}
      {img && <meta property="og:image:width" content={String(img.width)} />}
      {img && <meta property="og:image:height" content={String(img.height)} />}
      {img?.alt && <meta property="og:image:alt" content={img.alt} />}
      {meta.published && <meta property="article:published_time" content={meta.published} />}
      <meta name="twitter:card" content={img ? 'summary_large_image' : 'summary'} />
      <meta name="twitter:title" content={meta.title} />
      <meta name="twitter:description" content={meta.description} />
      {img && <meta name="twitter:image" content={imageUrl} />}
      {img?.alt && <meta name="twitter:image:alt" content={img.alt} />}
      {structuredData(meta, { canonical, imageUrl, settings, images }).map((data, i) => (
        // JSON-LD is a data block, never executed; escaped so content cannot close the tag.
        <script key={i} type="application/ld+json" dangerouslySetInnerHTML={{ __html: JSON.stringify(data).replace(/</g, '\\u003c') }} />
      ))}
    </>
  );
}

/** One route → its head tags and body markup. Pure: everything it needs comes in as arguments. */
export function renderPage(route: Route, ctx: RenderContext, templates: Record<string, ComponentType<never>>, Layout: ComponentType<{ children: React.ReactNode }>): RenderedPage {
  const collector = new IslandCollector();
  const imageCollector = new ImageCollector(route.url);
  const Template = templates[route.template] as ComponentType<Record<string, unknown>> | undefined;
  if (!Template) throw new Error(`route ${route.url} names the unknown template "${route.template}"`);
  const body = renderToString(
    <SiteContext.Provider value={ctx}>
      <IslandCollectorContext.Provider value={collector}>
        <ImageCollectorContext.Provider value={imageCollector}>
          <Layout>
            <Template {...(route.props as Record<string, unknown>)} />
          </Layout>
        </ImageCollectorContext.Provider>
      </IslandCollectorContext.Provider>
    </SiteContext.Provider>,
  );
  const head = renderToStaticMarkup(<Head meta={route.meta} route={route} ctx={ctx} />);
  return { route, head, body, islands: collector.used, images: imageCollector.uses, preload: imageCollector.preload };
}
