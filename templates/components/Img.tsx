import { useContext } from 'react';
import { useSite } from '../../src/page-api/site-context.tsx';
import { ImageCollectorContext, pictureMarkup, type SlotName } from '../../src/page-api/images.ts';

/**
 * An image from content/images as a responsive <picture>: AVIF and WebP sources and the fallback
 * <img>, sized for `slot` (how wide the layout shows it); an SVG is one file. `priority` marks the
 * page's one LCP image: eager, high priority and preloaded; every other image loads lazily.
 * `sizes` only ever comes with a `srcset`, and React writes no preload of its own for an image
 * inside a <picture>.
 */
export function Img({ src, alt, slot, className, priority = false }: { src: string; alt: string; slot: SlotName; className?: string; priority?: boolean }) {
  const image = useSite().images[src];
  if (!image) throw new Error(`image ${src} is not in content/images`);
  const markup = pictureMarkup(image, slot, { alt, className, priority });
  useContext(ImageCollectorContext)?.add({ src, slot, priority }, markup.preload);
  return (
    <picture>
      {markup.sources.map((s) => <source key={s.type} type={s.type} srcSet={s.srcSet} sizes={s.sizes} />)}
      <img {...markup.img} />
    </picture>
  );
}
