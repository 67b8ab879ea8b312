// What the search index is fed: one document per page a reader searches for (articles, case studies,
// service pages), made from the content, never from the built page. So the header, the footer, the
// cookie bar and 'Continue Reading' cannot reach the index: they are not in the content at all.
import type { Post, Site } from '../content/load.ts';
import { categoriesOf } from '../content/categories.ts';
import { markedKey } from '../body-marker.ts';
import { decodeAttribute } from '../links/entities.ts';
import { breathe } from '../concurrency.ts';

/** A page as pagefind's addCustomRecord takes it (see node_modules/pagefind/types/index.d.ts). */
export interface SearchDocument {
  url: string;
  content: string;
  language: 'en';
  meta: Record<string, string>;
  filters: { category: string[] };
  sort: Record<string, string>;
}

/**
 * A document whose article body is still in the build cache: `body` names it by its markdown key,
 * the way an article's route does (body-marker.ts), so that the index's key can be worked out
 * without reading a single body. `content` is the rest of the page's words.
 */
export interface PlannedDocument extends SearchDocument { body?: string; bodyKey?: string }

/** The category filter's value for the pages that are not articles. */
export const CASE_STUDY_CATEGORY = 'Case studies';
export const SERVICE_CATEGORY = 'Services';

// Fields of a case study or service that a reader does not read as words on its page: its
// position, its hero button's kind, a slug, image paths and alt text, and the head's own copy.
const NOT_WORDS = new Set(['order', 'action', 'slug', 'headerImage', 'headerImageAlt', 'image', 'metaTitle', 'metaDescription', 'contactHeading', 'search']);

/** Every string a YAML file shows, in document order, leaving out the fields above. */
function wordsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) wordsOf(item, out);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) if (!NOT_WORDS.has(key)) wordsOf(item, out);
  }
  return out;
}

const BLOCK_END = /<\/(?:p|h[1-6]|li|dt|dd|blockquote|pre|td|th|figcaption|div|aside|section)>|<br\s*\/?>/gi;

/** The words of an HTML fragment (the site's own markdown output): tags dropped, references decoded, space collapsed. */
export function textOfHtml(html: string): string {
  return decodeAttribute(html.replace(BLOCK_END, ' ').replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim();
}

const joined = (parts: Array<string | undefined>) => parts.filter((p) => p && p.trim()).join(' ').replace(/\s+/g, ' ').trim();

function articleDocument(post: Post): PlannedDocument {
  const key = markedKey(post.html);
  return {
    url: `/blog/${post.slug}`,
    // The excerpt and the questions; finishDocument adds the body's words after them.
    content: joined([post.excerpt, ...post.faq.flatMap((f) => [f.question, f.answer])]),
    ...(key === undefined ? { body: textOfHtml(post.html) } : { bodyKey: key }),
    language: 'en',
    meta: { title: post.title, date: post.date, kind: 'Article' },
    filters: { category: [...categoriesOf(post)] },
    sort: { date: post.date },
  };
}

/** The site's searchable pages, in a stable order; a page whose content says `search: false` is left out. */
export async function plannedDocuments(site: Site): Promise<PlannedDocument[]> {
  // A tenth of a second at 10,000 articles: the event loop gets its turns meanwhile (concurrency.ts).
  const documents: PlannedDocument[] = [];
  for (const post of site.posts) {
    if (post.search !== false) documents.push(articleDocument(post));
    await breathe();
  }
  for (const study of site.caseStudies) {
    if (study.search === false) continue;
    documents.push({
      url: `/case-studies/${study.slug}`,
      content: joined(wordsOf({ ...study, title: undefined, slug: undefined })),
      language: 'en',
      meta: { title: study.title, kind: 'Case study' },
      filters: { category: [CASE_STUDY_CATEGORY] },
      sort: {},
    });
  }
  for (const service of site.collections.services) {
    if (service.search === false) continue;
    documents.push({
      url: `/services/${service.slug}`,
      // Its name and summary are the overview card's words, not this page's.
      content: joined(wordsOf({ ...service, name: undefined, summary: undefined })),
      language: 'en',
      meta: { title: service.hero.heading, kind: 'Service' },
      filters: { category: [SERVICE_CATEGORY] },
      sort: {},
    });
  }
  return documents;
}

/** The document pagefind is given: the article's body read back (from the cache, by `readBody`) between its excerpt and its questions. */
export async function finishDocument(document: PlannedDocument, readBody: (key: string) => Promise<string | undefined>): Promise<SearchDocument> {
  const { body, bodyKey, content, ...rest } = document;
  let text = body;
  if (bodyKey !== undefined) {
    const html = await readBody(bodyKey);
    if (html === undefined) throw new Error(`search index: the body of ${document.url} is missing from the build cache`);
    text = textOfHtml(html);
  }
  return { ...rest, content: joined([content, text]) };
}
