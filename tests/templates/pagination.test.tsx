import { describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';
import { Pagination } from '../../templates/pages/blog/Pagination.tsx';
import { pageLinks } from '../../src/routes/blog-paging.ts';

/** The visible labels of the pagination, in order: numbers, 'Previous', 'Next', and '…' for a gap. */
function labels(html: string): string[] {
  return [...html.matchAll(/<li( class="pagination__gap" aria-hidden="true")?>(.*?)<\/li>/g)]
    .map(([, gap, inner]) => (gap ? `${inner}(hidden)` : inner!.replace(/<span class="visually-hidden">[^<]*<\/span>/g, '').replace(/<[^>]+>/g, '')));
}

describe('Pagination of a long article list', () => {
  it('links the first and last pages and those around the current one, with the gaps hidden from screen readers', () => {
    const html = renderToString(<Pagination pages={pageLinks(200, 400)} current={200} />);
    expect(labels(html)).toEqual(['Previous', '1', '…(hidden)', '198', '199', '200', '201', '202', '…(hidden)', '400', 'Next']);
    expect(html).toContain('<a class="pagination__number" href="/blog/page/200" aria-current="page">');
    expect(html).toContain('href="/blog/page/199" rel="prev"');
    expect(html).toContain('href="/blog/page/201" rel="next"');
  });

  it('shows no gap where the numbers run on', () => {
    const html = renderToString(<Pagination pages={pageLinks(2, 4)} current={2} />);
    expect(labels(html)).toEqual(['Previous', '1', '2', '3', '4', 'Next']);
  });
});
