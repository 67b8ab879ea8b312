import type { Faq } from '../content/schemas.ts';

/** What a page tells browsers, search engines and social sites about itself. */
export interface PageMeta {
  title: string;
  description: string;
  /** An image key from content/images (/images/x.svg); the site default when absent. */
  image?: string;
  type?: 'website' | 'article';
  /** ISO date, for articles. */
  published?: string;
  /** Structured data the page declares besides what the head makes from the fields below (see structured-data.ts). */
  jsonLd?: Array<Record<string, unknown>>;
  /** A blog article: the head describes it as a schema.org Article, from the fields above and its keywords (its categories). */
  article?: { keywords?: string };
  /** The questions the page answers, shown on it: the head adds their FAQPage structured data. */
  faq?: readonly Faq[];
  noindex?: boolean;
  /** What the page's share card shows; a page without one shares the site's card. */
  card?: CardContent;
  /** The share card's PNG, set by the build once the card is planned (src/cards/plan.ts). */
  shareImage?: ShareImage;
}

/** The words and art of a share card: 'Article · Data governance', the title, the article's own art. */
export interface CardContent {
  title: string;
  label: string;
  /** An image key of content/images (/images/x.svg) drawn beside the title. */
  art?: string;
}

/** An og:image as the head writes it: a root-relative PNG and what it shows, in words. */
export interface ShareImage { src: string; width: number; height: number; alt: string; type: 'image/png' }
