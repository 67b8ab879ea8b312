import { describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';
import { canMove, nextSlide, prevSlide, slideAt } from '../../islands/shared/carousel-state.ts';
import Carousel, { CarouselControls } from '../../islands/carousel.tsx';

describe('carousel bounds', () => {
  it('moves one slide at a time and stops at both ends', () => {
    expect(nextSlide(0, 4)).toBe(1);
    expect(nextSlide(3, 4)).toBe(3);
    expect(prevSlide(1, 4)).toBe(0);
    expect(prevSlide(0, 4)).toBe(0);
  });

  it('says when a button cannot move, so it can be disabled', () => {
    expect(canMove(0, 4, -1)).toBe(false);
    expect(canMove(0, 4, 1)).toBe(true);
    expect(canMove(3, 4, 1)).toBe(false);
    expect(canMove(0, 1, 1)).toBe(false);
    expect(canMove(0, 0, 1)).toBe(false);
  });

  it('finds the slide nearest a scroll position', () => {
    expect(slideAt(0, 300, 4)).toBe(0);
    expect(slideAt(320, 300, 4)).toBe(1);
    expect(slideAt(5000, 300, 4)).toBe(3);
    expect(slideAt(10, 0, 4)).toBe(0);
  });
});

describe('carousel markup', () => {
  const items = [1, 2, 3].map((n) => ({ quote: `Quote ${n}`, attribution: `Role ${n}` }));

  it('renders every slide on the server, labelled, with only the button that cannot move disabled', () => {
    const html = renderToString(<Carousel label="What our clients say" items={items} />);
    expect(html).toContain('aria-roledescription="carousel"');
    expect(html.match(/aria-roledescription="slide"/g)).toHaveLength(3);
    expect(html).toContain('aria-label="2 of 3"');
    for (const n of [1, 2, 3]) expect(html).toContain(`Quote ${n}`);
    // Next is live before hydration: the island wakes on that press and replays it.
    expect(html.match(/<button[^>]*disabled=""/g)).toHaveLength(1);
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*aria-label="Previous testimonial"|<button[^>]*aria-label="Previous testimonial"[^>]*disabled=""/);
    expect(html).toContain('aria-live="polite"');
  });

  it('throws the developer error when a part is used outside a carousel', () => {
    expect(() => renderToString(<CarouselControls />)).toThrow('useCarousel must be used within a <Carousel />');
  });
});
