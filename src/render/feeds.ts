import type { Route } from '../routes/table.ts';
import type { Site } from '../content/load.ts';

import { escapeMarkup as xml } from './escape.ts';
import { absoluteUrl } from '../url-resolution/absolute-url.ts';

const absolute = (site: Site, path: string) => absoluteUrl(site.settings.url, path);

export function sitemapXml(site: Site, all: Route[]): string {
  const urls = all.filter((r) => r.status === 200 && !r.meta.noindex).map((r) => {
    const lastmod = r.meta.published ? `<lastmod>${r.meta.published}</lastmod>` : '';
    return `  <url><loc>${xml(absolute(site, r.url))}</loc>${lastmod}</url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}

export function robotsTxt(site: Site): string {
  return `User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${absolute(site, '/sitemap.xml')}\n`;
}

/** How many articles the feed lists: a reader polls it often, and wants what is new, not the archive. */
export const FEED_ENTRIES = 50;

/** An Atom feed of the newest articles (FEED_ENTRIES at most), newest first. `updated` is the build time, passed in. */
export function atomFeed(site: Site, updated: Date): string | undefined {
  if (!site.posts.length) return undefined;
  const entries = site.posts.slice(0, FEED_ENTRIES).map((p) => {
    const url = absolute(site, `/blog/${p.slug}`);
    return [
      '  <entry>',
      `    <title>${xml(p.title)}</title>`,
      `    <link href="${xml(url)}"/>`,
      `    <id>${xml(url)}</id>`,
      `    <published>${p.date}T00:00:00Z</published>`,
      `    <updated>${p.date}T00:00:00Z</updated>`,
      `    <summary>${xml(p.excerpt)}</summary>`,
      ...(p.categories ?? []).map((c) => `    <category term="${xml(c)}"/>`),
      '  </entry>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <title>${xml(`${site.settings.name} Insights`)}</title>`,
    `  <link href="${xml(absolute(site, '/blog/feed.xml'))}" rel="self"/>`,
    `  <link href="${xml(absolute(site, '/blog'))}"/>`,
    `  <id>${xml(absolute(site, '/blog'))}</id>`,
    `  <updated>${updated.toISOString()}</updated>`,
    `  <author><name>${xml(site.settings.name)}</name></author>`,
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}
