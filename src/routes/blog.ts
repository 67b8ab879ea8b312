import type { Site, Post } from '../content/load.ts';
import type { SiteSettings } from '../content/schemas.ts';
import { continueReading, metaDescription, paginate } from './blog-paging.ts';
import { BLOG_PLACEHOLDER_IMAGE as PLACEHOLDER_IMAGE } from '../content/fields.ts';
import { formatDate } from './date-label.ts';
import { faqPageJsonLd } from './json-ld.ts';
import { page, type Route } from './route.ts';
import { absoluteUrl } from '../routing/absolute-url.ts';
import type { PostSummary } from '../../templates/components/PostCard.tsx';
import type { ShareLinks } from '../../templates/pages/blog/BlogPost.tsx';


/** What a post card needs: the post without its body, and its date as readers see it. */
export function summary(post: Post): PostSummary {
  const { slug, title, excerpt, date, readingTime, categories, image } = post;
  return { slug, title, excerpt, date, dateLabel: formatDate(date), readingTime, categories, image };
}

/** An absolute address for a site path or an image key, for structured data and share links. */
function absolute(site: Site, pathOrImage: string): string {
  return absoluteUrl(site.settings.url, site.images[pathOrImage]?.src ?? pathOrImage);
}

function organisation(settings: SiteSettings, site: Site) {
  return {
    '@type': 'Organization',
    name: settings.name,
    url: absolute(site, '/'),
    ...(settings.logo ? { logo: { '@type': 'ImageObject', url: absolute(site, settings.logo) } } : {}),
  };
}

/** Schema.org Article and FAQPage for one post. */
export function articleJsonLd(site: Site, post: Post): Array<Record<string, unknown>> {
  const url = absolute(site, `/blog/${post.slug}`);
  return [
    {
      '@context': 'https://schema.org',
      '@type': 'Article',
      headline: post.title,
      description: metaDescription(post.excerpt),
      datePublished: post.date,
      dateModified: post.date,
      author: organisation(site.settings, site),
      publisher: organisation(site.settings, site),
      image: [absolute(site, post.image?.src ?? PLACEHOLDER_IMAGE)],
      mainEntityOfPage: { '@type': 'WebPage', '@id': url },
      ...(post.categories?.length ? { keywords: post.categories.join(', ') } : {}),
    },
    faqPageJsonLd(post.faq),
  ];
}

/** Share addresses that really share: e-mail, LinkedIn and X. */
export function shareLinks(url: string, title: string): ShareLinks {
  const u = encodeURIComponent(url);
  return {
    email: `mailto:?subject=${encodeURIComponent(title)}&body=${encodeURIComponent(`${title}\n\n${url}`)}`,
    linkedin: `https://www.linkedin.com/sharing/share-offsite/?url=${u}`,
    x: `https://twitter.com/intent/tweet?url=${u}&text=${encodeURIComponent(title)}`,
  };
}

function listRoutes(site: Site): Route[] {
  const content = site.pages.blog;
  const pages = paginate(site.posts.map(summary));
  return pages.map((p) => page(p.url, 'blogList', {
    content,
    posts: p.items,
    current: p.number,
    pages: pages.map(({ number, url }) => ({ number, url })),
  }, {
    title: p.number === 1 ? content.title : `${content.title}, page ${p.number} of ${pages.length}`,
    description: content.description,
  }));
}

function postRoutes(site: Site): Route[] {
  return site.posts.map((post) => {
    const url = `/blog/${post.slug}`;
    return page(url, 'blogPost', {
      post: { ...summary(post), html: post.html, toc: post.toc, faq: post.faq, bodyImages: post.bodyImages },
      related: continueReading(site.posts, post.slug).map(summary),
      share: shareLinks(absolute(site, url), post.title),
    }, {
      title: post.title,
      description: metaDescription(post.excerpt),
      image: post.image?.src ?? PLACEHOLDER_IMAGE,
      type: 'article',
      published: post.date,
      jsonLd: articleJsonLd(site, post),
    });
  });
}

/** The blog: the article list, page by page, and one page per article. */
export function blogRoutes(site: Site): Route[] {
  return [...listRoutes(site), ...postRoutes(site)];
}
