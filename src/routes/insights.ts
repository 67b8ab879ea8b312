import type { Site, Post } from '../content/load.ts';
import type { SiteSettings } from '../content/schemas.ts';
import { continueReading, metaDescription, paginate } from '../content/blog-select.ts';
import { categoriesOf, categorySlug, categoryUrl } from '../content/categories.ts';
import { page, type Route } from './route.ts';
import type { BlogListProps } from '../../templates/pages/insights/BlogList.tsx';

export const PLACEHOLDER_IMAGE = '/images/blog-placeholder.svg';

/** A category label and the address of its articles. */
export interface CategoryLink { name: string; href: string }

/** What a post card needs: the post without its body, its categories as links (the default where it names none). */
export type PostSummary = Pick<Post, 'slug' | 'title' | 'excerpt' | 'date' | 'readingTime' | 'image' | 'preview'> & { categories: CategoryLink[] };

export function summary(post: Post): PostSummary {
  const { slug, title, excerpt, date, readingTime, image, preview } = post;
  return {
    slug, title, excerpt, date, readingTime, image,
    categories: categoriesOf(post).map((name) => ({ name, href: categoryUrl(name) })),
    ...(preview ? { preview } : {}),
  };
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

/** The pages of one article list, six a page: /blog, and each category's, numbered alike. */
function listRoutes(posts: PostSummary[], base: string, view: { hero: BlogListProps['hero']; feedLink?: string; category?: string; title: string; description: string }): Route[] {
  const pages = paginate(posts, undefined, base);
  return pages.map((p) => page(p.url, 'blogList', {
    hero: view.hero,
    ...(view.feedLink ? { feedLink: view.feedLink } : {}),
    ...(view.category ? { category: view.category } : {}),
    posts: p.items,
    current: p.number,
    pages: pages.map(({ number, url }) => ({ number, url })),
  }, {
    title: p.number === 1 ? view.title : `${view.title}, page ${p.number} of ${pages.length}`,
    description: view.description,
  }));
}

function blogRoutes(site: Site, cards: PostSummary[]): Route[] {
  const { title, description, hero, feedLink } = site.pages.blog;
  return listRoutes(cards, '/blog', { hero, feedLink, title, description });
}

/** One list per category that has articles in this build, in the order the articles are (newest first). */
function categoryRoutes(site: Site, cards: PostSummary[]): Route[] {
  const { hero, category: words } = site.pages.blog;
  const byCategory = new Map<string, { name: string; cards: PostSummary[] }>();
  for (const card of cards) {
    for (const { name } of card.categories) {
      const slug = categorySlug(name);
      const entry = byCategory.get(slug) ?? byCategory.set(slug, { name, cards: [] }).get(slug)!;
      entry.cards.push(card);
    }
  }
  const fill = (text: string, name: string) => text.replaceAll('{category}', name);
  return [...byCategory.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).flatMap(([slug, { name, cards: listed }]) => listRoutes(listed, `/blog/category/${slug}`, {
    hero: { eyebrow: hero.eyebrow, heading: name, text: fill(words.text, name) },
    category: name,
    title: fill(words.title, name),
    description: fill(words.description, name),
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
  const cards = site.posts.map(summary);
  return [
    ...blogRoutes(site, cards),
    ...categoryRoutes(site, cards),
    ...postRoutes(site),
    page('/contact', 'contactPage', { content: contact }, { title: contact.title, description: contact.description }),
    page('/dialog-assessment', 'assessmentPage', { content: assessment }, { title: assessment.title, description: assessment.description, image: assessment.image.src }),
    page('/thank-you', 'thankYouPage', { content: thanks }, { title: thanks.title, description: thanks.description, noindex: true }),
    ...legalRoutes(site),
  ];
}
