import type { Faq } from '../content/schemas.ts';

/** schema.org FAQPage from question-and-answer pairs. */
export function faqPageJsonLd(items: Faq[]): Record<string, unknown> {
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
