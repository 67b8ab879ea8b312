/** What a page tells browsers, search engines and social sites about itself. */
export interface PageMeta {
  title: string;
  description: string;
  /** An image key from content/images (/images/x.svg); the site default when absent. */
  image?: string;
  type?: 'website' | 'article';
  /** ISO date, for articles. */
  published?: string;
  jsonLd?: Array<Record<string, unknown>>;
  noindex?: boolean;
}
