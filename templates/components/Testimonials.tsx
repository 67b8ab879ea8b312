import { Island } from '../../src/render/island.tsx';
import Carousel, { type CarouselItem } from '../../islands/carousel.tsx';

/** Client quotes: a carousel once visible, every quote readable in the HTML before that. */
export function Testimonials({ items, label }: { items: CarouselItem[]; label: string }) {
  return <Island component={Carousel} hydrate="visible" props={{ items, label }} />;
}
