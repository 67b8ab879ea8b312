import { createContext, useCallback, useContext, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { ArrowLeft, ArrowRight } from './shared/icons.tsx';
import { canMove, moveSlide, slideAt } from './shared/carousel-state.ts';

interface CarouselState { index: number; count: number; enabled: boolean; go: (step: -1 | 1) => void; label: string }

const CarouselContext = createContext<CarouselState | null>(null);

/** Parts of a carousel share its state; outside one they cannot work, so they say so. */
export function useCarousel(): CarouselState {
  const ctx = useContext(CarouselContext);
  if (!ctx) throw new Error('useCarousel must be used within a <Carousel />');
  return ctx;
}

export interface CarouselItem { quote: string; attribution: string }
export interface CarouselProps { label: string; items: CarouselItem[] }

/**
 * Testimonials carousel (APG carousel, no rotation). Every slide is in the server HTML in a
 * scrollable row, so without JavaScript they can all be read; the island adds the buttons' work,
 * arrow keys and the announcement.
 */
export default function Carousel({ label, items }: CarouselProps) {
  const [index, setIndex] = useState(0);
  const [enabled, setEnabled] = useState(false);
  const track = useRef<HTMLDivElement>(null);
  // While the buttons scroll the row, its scroll events must not pull the index back mid-way.
  const scrolling = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => setEnabled(true), []);

  const show = useCallback((i: number) => {
    setIndex(i);
    clearTimeout(scrolling.current);
    scrolling.current = setTimeout(() => { scrolling.current = undefined; }, 700);
    const el = track.current;
    const slide = el?.children[i] as HTMLElement | undefined;
    if (el && slide) el.scrollTo({ left: slide.offsetLeft - el.offsetLeft, behavior: window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
  }, []);
  const go = useCallback((step: -1 | 1) => show(moveSlide(index, items.length, step)), [index, items.length, show]);

  // A swipe or a scroll moves the current slide too, so the buttons stay truthful.
  useEffect(() => {
    const el = track.current;
    if (!el) return;
    let frame = 0;
    const onScroll = () => {
      if (scrolling.current) return;
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => setIndex(slideAt(el.scrollLeft, el.clientWidth, items.length)));
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => { el.removeEventListener('scroll', onScroll); cancelAnimationFrame(frame); };
  }, [items.length]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (!enabled) return;
    if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
      event.preventDefault();
      go(event.key === 'ArrowLeft' ? -1 : 1);
    }
  };

  return (
    <CarouselContext.Provider value={{ index, count: items.length, enabled, go, label }}>
      <section className="carousel" aria-roledescription="carousel" aria-label={label} onKeyDown={onKeyDown}>
        <div ref={track} className="carousel__track" role="group" tabIndex={0} aria-label="Quotes">
          {items.map((item, i) => (
            <div key={i} className="carousel__slide" role="group" aria-roledescription="slide" aria-label={`${i + 1} of ${items.length}`}>
              <figure className="quote card">
                <blockquote><p>{item.quote}</p></blockquote>
                <figcaption>{item.attribution}</figcaption>
              </figure>
            </div>
          ))}
        </div>
        <CarouselControls />
      </section>
    </CarouselContext.Provider>
  );
}

export function CarouselControls() {
  const { index, count, go } = useCarousel();
  const prev = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  // A button that becomes disabled while focused would drop focus to the page: hand it over.
  useEffect(() => {
    if (document.activeElement === prev.current && prev.current?.disabled) next.current?.focus();
    if (document.activeElement === next.current && next.current?.disabled) prev.current?.focus();
  }, [index]);
  return (
    <div className="carousel__controls">
      <button ref={prev} type="button" className="icon-button" aria-label="Previous testimonial" disabled={!canMove(index, count, -1)} onClick={() => go(-1)}><ArrowLeft /></button>
      <button ref={next} type="button" className="icon-button" aria-label="Next testimonial" disabled={!canMove(index, count, 1)} onClick={() => go(1)}><ArrowRight /></button>
      <p className="carousel__status" aria-live="polite" aria-atomic="true">{index + 1} of {count}</p>
    </div>
  );
}
