import type { ComponentProps } from 'react';
import type { Site } from './content/load.ts';
import type { PageMeta } from './render/meta.ts';
import type { RoutingTable } from './routing.ts';
import { pageFile } from './routing.ts';
import type { templates } from '../templates/pages/index.ts';

type Templates = typeof templates;
export type TemplateName = keyof Templates;

export type Route = {
  [K in TemplateName]: {
    url: string;
    /** Path of the output file under dist/, with a leading slash. */
    file: string;
    status: 200 | 404;
    template: K;
    props: ComponentProps<Templates[K]>;
    meta: PageMeta;
  };
}[TemplateName];

function page<K extends TemplateName>(url: string, template: K, props: ComponentProps<Templates[K]>, meta: PageMeta): Route {
  return { url, file: pageFile(url), status: 200, template, props, meta } as Route;
}

/** Every URL of the site: a pure function of the content. Build, sitemap, serve and the CDN read this list. */
export function routes(site: Site): Route[] {
  const { pages } = site;
  return [
    page('/', 'home', { content: pages.home }, { title: pages.home.title, description: pages.home.description, image: pages.home.hero.image.src }),
    {
      url: '/404', file: '/404.html', status: 404, template: 'notFound', props: {},
      meta: { title: 'Page not found', description: "The page you're looking for doesn't exist or has been moved.", noindex: true },
    },
  ];
}

/** Exact-path redirects; the CDN and `site serve` apply them alike. */
export const REDIRECTS: RoutingTable['redirects'] = {
  '/services/analytics-and-reporting': { to: '/services/data-visualisation', status: 301 },
};

export function routingTable(all: Route[]): RoutingTable {
  return {
    pages: all.filter((r) => r.status === 200).map((r) => r.url),
    redirects: REDIRECTS,
    fallbacks: [
      { prefix: '/blog/', redirect: '/blog', status: 302 },
      ...(all.some((r) => r.file === '/case-studies/404.html') ? [{ prefix: '/case-studies/', file: '/case-studies/404.html', status: 404 }] : []),
    ],
    notFound: '/404.html',
  };
}
