/** Carousel bounds: no wrap-around, so 'previous' stops at the first slide and 'next' at the last. */
export function canMove(index: number, count: number, step: -1 | 1): boolean {
  const next = index + step;
  return next >= 0 && next < count;
}

export function moveSlide(index: number, count: number, step: -1 | 1): number {
  return canMove(index, count, step) ? index + step : index;
}

export const nextSlide = (index: number, count: number) => moveSlide(index, count, 1);
export const prevSlide = (index: number, count: number) => moveSlide(index, count, -1);

/** The slide nearest a scroll position, for a visitor who swipes instead of pressing the buttons. */
export function slideAt(scrollLeft: number, slideWidth: number, count: number): number {
  if (slideWidth <= 0 || count === 0) return 0;
  return Math.min(count - 1, Math.max(0, Math.round(scrollLeft / slideWidth)));
}
