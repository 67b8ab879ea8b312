import type { Faq, SiteSettings } from '../content/schemas.ts';
import type { SiteImage } from '../images/site-image.ts';
import { absoluteUrl } from '../url-resolution/absolute-url.ts';
import type { PageMeta } from '../routes/meta.ts';

/** schema.org FAQPage from question-and-answer pairs. */
export function faqPageJsonLd(items: readonly Faq[]): Record<string, unknown> {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: items.map((item) => ({
      '@type': 'Question',
      name: item.question,
      acceptedAnswer: { '@type': 'Answer', text: item.answer },
    })),
  };
}

/** The organisation behind the site, as an article's author and publisher. */
function organisation(settings: SiteSettings, images: Record<string, SiteImage>): Record<string, unknown> {
  const absolute = (pathOrImage: string) => absoluteUrl(settings.url, images[pathOrImage]?.src ?? pathOrImage);
  return {
    '@type': 'Organization',
    name: settings.name,
    url: absolute('/'),
    ...(settings.logo ? { logo: { '@type': 'ImageObject', url: absolute(settings.logo) } } : {}),
  };
}

/**
 * The page's structured data, as its head writes it: what its route declares (an Article there given
 * the page's share image, a raster, as Google asks), then the schema.org Article of a blog article
 * and the FAQPage of the questions it answers, made here from the page's meta. Made as the page
 * renders, so that a rebuild of a large blog does not build them for every page it leaves standing.
 */
export function structuredData(meta: PageMeta, page: { canonical: string; imageUrl?: string; settings: SiteSettings; images: Record<string, SiteImage> }): Array<Record<string, unknown>> {
  const { canonical, imageUrl, settings, images } = page;
  const image = imageUrl === undefined ? {} : { image: [imageUrl] };
  const declared = (meta.jsonLd ?? []).map((data) => (data['@type'] === 'Article' ? { ...data, ...image } : data));
  const author = meta.article && organisation(settings, images);
  return [
    ...declared,
    ...(meta.article ? [{
      '@context': 'https://schema.org',
      '@type': 'Article',
      headline: meta.title,
      description: meta.description,
      datePublished: meta.published,
      dateModified: meta.published,
      author,
      publisher: author,
      ...image,
      mainEntityOfPage: { '@type': 'WebPage', '@id': canonical },
      ...(meta.article.keywords ? { keywords: meta.article.keywords } : {}),
    }] : []),
    ...(meta.faq ? [faqPageJsonLd(meta.faq)] : []),
  ];
}
