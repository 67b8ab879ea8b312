import { Island } from '../../src/page-api/island.tsx';
import Carousel, { type CarouselItem } from '../../islands/carousel.tsx';

/**
 * Client quotes: every quote readable in the HTML; a carousel from the first pointer, focus or key
 * on it (that first press replayed). Not 'visible': on /testimonials, and near the fold on home,
 * it sits in the first screen, and would load React before the visitor acts (budgets.json).
 */
export function Testimonials({ items, label }: { items: CarouselItem[]; label: string }) {
  return <Island component={Carousel} hydrate="interaction" props={{ items, label }} />;
}
