import type { Site, Post } from '../content/load.ts';
import type { SiteSettings } from '../content/schemas.ts';
import { continueReading, metaDescription, pageLinks, paginate } from '../content/blog-select.ts';
import { page, type Route } from './route.ts';

export const PLACEHOLDER_IMAGE = '/images/blog-placeholder.svg';

/** What a post card needs: the post without its body. */
export type PostSummary = Pick<Post, 'slug' | 'title' | 'excerpt' | 'date' | 'readingTime' | 'categories' | 'image'>;

export function summary(post: Post): PostSummary {
  const { slug, title, excerpt, date, readingTime, categories, image } = post;
  return { slug, title, excerpt, date, readingTime, categories, image };
}

/** An absolute address for a site path or an image key, for structured data and share links. */
function absolute(site: Site, pathOrImage: string): string {
  const path = site.images[pathOrImage]?.src ?? pathOrImage;
  const url = new URL(path, site.settings.url).href;
  return path === '/' ? url : url.replace(/\/$/, '');
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
    {
      '@context': 'https://schema.org',
      '@type': 'FAQPage',
      mainEntity: post.faq.map((item) => ({
        '@type': 'Question',
        name: item.question,
        acceptedAnswer: { '@type': 'Answer', text: item.answer },
      })),
    },
  ];
}

/** Share addresses that really share: e-mail, LinkedIn and X. */
export function shareLinks(url: string, title: string) {
  const u = encodeURIComponent(url);
  return {
    email: `mailto:?subject=${encodeURIComponent(title)}&body=${encodeURIComponent(`${title}\n\n${url}`)}`,
    linkedin: `https://www.linkedin.com/sharing/share-offsite/?url=${u}`,
    x: `https://twitter.com/intent/tweet?url=${u}&text=${encodeURIComponent(title)}`,
  };
}

function blogRoutes(site: Site): Route[] {
  const content = site.pages.blog;
  const pages = paginate(site.posts.map(summary));
  return pages.map((p) => page(p.url, 'blogList', {
    content,
    posts: p.items,
    current: p.number,
    total: pages.length,
    pages: pageLinks(p.number, pages.length),
  }, {
    title: p.number === 1 ? content.title : `${content.title}, page ${p.number} of ${pages.length}`,
    description: content.description,
  }));
}

function postRoutes(site: Site): Route[] {
  return site.posts.map((post) => {
    const url = `/blog/${post.slug}`;
    return page(url, 'blogPost', {
      post: { ...summary(post), html: post.html, toc: post.toc, faq: post.faq },
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

function legalRoutes(site: Site): Route[] {
  return (['privacy-policy', 'terms-of-service'] as const).map((slug) => {
    const { title, description, updated, html, toc } = site.legal[slug];
    return page(`/${slug}`, 'legalPage', { title, updated, html, toc: toc.filter((t) => t.depth === 2) }, { title, description });
  });
}

/** The routes of the insights, forms and legal pages. */
export function insightsRoutes(site: Site): Route[] {
  const { contact, 'dialog-assessment': assessment, 'thank-you': thanks } = site.pages;
  return [
    ...blogRoutes(site),
    ...postRoutes(site),
    page('/contact', 'contactPage', { content: contact }, { title: contact.title, description: contact.description }),
    page('/dialog-assessment', 'assessmentPage', { content: assessment }, { title: assessment.title, description: assessment.description, image: assessment.image.src }),
    page('/thank-you', 'thankYouPage', { content: thanks }, { title: thanks.title, description: thanks.description, noindex: true }),
    ...legalRoutes(site),
  ];
}
