import type { SiteContent, Post } from '../content/load.ts';
import { continueReading, metaDescription, pageLinks, paginate } from './blog-paging.ts';
import { BLOG_PLACEHOLDER_IMAGE as PLACEHOLDER_IMAGE } from '../content/article-order.ts';
import { categoriesOf, categorySlug, categoryUrl } from '../content/categories.ts';
import { londonTimeOf } from '../content/publication.ts';
import { formatDate } from './date-label.ts';
import type { templates } from '../../templates/pages/blog/index.ts';
import { routeMakers, type RouteOf } from './route.ts';
import type { PostSummary } from '../../templates/components/PostTeaser.tsx';
import type { PreviewMark } from '../../templates/components/PreviewMark.tsx';
import type { BlogListProps } from '../../templates/pages/blog/BlogList.tsx';

/** This kind's routes: to its templates only. */
type Route = RouteOf<typeof templates>;
const { page } = routeMakers<typeof templates>();

/** The banner text of an article only a preview build contains ('Draft: not published', 'Scheduled for …'). */
function previewMark(post: Post): PreviewMark | undefined {
  if (post.preview === 'draft') return { status: 'draft', label: 'Draft: not published' };
  if (post.preview === 'scheduled' && post.publishDate) {
    const time = londonTimeOf(post.publishDate);
    return { status: 'scheduled', label: `Scheduled for ${formatDate(post.publishDate)}${time ? ` at ${time}` : ''}` };
  }
  return undefined;
}

// One card per article, however many lists and 'Continue Reading' blocks show it (five or so each).
const summaries = new WeakMap<Post, PostSummary>();

/** An article's reading time from its words, at 200 a minute, when its front matter gives none ('1 min read' at least). */
export function readingTimeOf(html: string): string {
  const words = html.replace(/<[^>]*>/g, ' ').split(/\s+/).filter((w) => /\w/.test(w)).length;
  return `${Math.max(1, Math.round(words / 200))} min read`;
}

/** What a post card needs: the post without its body, its date as readers see it, its categories as links. */
export function summary(post: Post): PostSummary {
  const made = summaries.get(post);
  if (made) return made;
  const { slug, title, excerpt, date, readingTime, image } = post;
  const preview = previewMark(post);
  const card: PostSummary = {
    slug, title, excerpt, date, dateLabel: formatDate(date), readingTime: readingTime ?? readingTimeOf(post.html ?? ''), image,
    categories: categoriesOf(post).map((name) => ({ name, href: categoryUrl(name) })),
    ...(preview ? { preview } : {}),
  };
  summaries.set(post, card);
  return card;
}

/** The pages of one article list, six a page: /blog, and each category's, numbered alike. */
function listRoutes(posts: PostSummary[], base: string, view: { hero: BlogListProps['hero']; feedLink?: string; searchLabel?: string; category?: string; title: string; description: string }): Route[] {
  const pages = paginate(posts, undefined, base);
  return pages.map((p) => page(p.url, 'blogList', {
    hero: view.hero,
    ...(view.feedLink ? { feedLink: view.feedLink } : {}),
    ...(view.searchLabel ? { searchLabel: view.searchLabel } : {}),
    ...(view.category ? { category: view.category } : {}),
    posts: p.items,
    current: p.number,
    total: pages.length,
    pages: pageLinks(p.number, pages.length, base),
  }, {
    title: p.number === 1 ? view.title : `${view.title}, page ${p.number} of ${pages.length}`,
    description: view.description,
    // A category's pages share one card; /blog has the site's.
    ...(view.category ? { card: { title: view.category, label: 'Insights' } } : {}),
  }));
}

function blogListRoutes(site: SiteContent, cards: PostSummary[]): Route[] {
  const { title, description, hero, feedLink, search } = site.pages.blog;
  return listRoutes(cards, '/blog', { hero, feedLink, title, description, ...(site.settings.search ? { searchLabel: search.label } : {}) });
}

/** One list per category that has articles in this build, in the order the articles are (newest first). */
function categoryRoutes(site: SiteContent, cards: PostSummary[]): Route[] {
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

// Its structured data (an Article, and the FAQPage of its questions) and its share links are made
// as its page renders, from what the route holds: a rebuild of a large blog leaves most pages
// standing, and making them for every article cost it a third of its routes' time.
function postRoutes(site: SiteContent): Route[] {
  return site.posts.map((post) => {
    const url = `/blog/${post.slug}`;
    return page(url, 'blogPost', {
      post: { ...summary(post), html: post.html, toc: post.toc, faq: post.faq, bodyImages: post.bodyImages },
      related: continueReading(site.posts, post.slug).map(summary),
    }, {
      title: post.title,
      description: metaDescription(post.excerpt),
      image: post.image?.src ?? PLACEHOLDER_IMAGE,
      type: 'article',
      published: post.date,
      article: post.categories?.length ? { keywords: post.categories.join(', ') } : {},
      faq: post.faq,
      card: {
        title: post.title,
        label: `Article · ${categoriesOf(post)[0]}`,
        // The placeholder is nobody's own art: the card goes without.
        ...(post.image?.src && post.image.src !== PLACEHOLDER_IMAGE ? { art: post.image.src } : {}),
      },
    });
  });
}

/** The blog: the article list page by page, each category's list likewise, and one page per article. */
export function blogRoutes(site: SiteContent): Route[] {
  const cards = site.posts.map(summary);
  return [...blogListRoutes(site, cards), ...categoryRoutes(site, cards), ...postRoutes(site)];
}
