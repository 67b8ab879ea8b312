import { useSite } from '../../src/page-api/site-context.tsx';

/**
 * An image from content/images, with its hashed address and intrinsic size so nothing shifts. No
 * `sizes`: it means nothing without `srcset` (invalid HTML), and React would copy it into the
 * preload it writes for a priority image as an equally invalid `imagesizes`.
 */
export function Img({ src, alt, className, priority = false}: { src: string; alt: string; className?: string; priority?: boolean }) {
  const image = useSite().images[src];
  if (!image) throw new Error(`image ${src} is not in content/images`);
  return (
    <img
      src={image.src}
      alt={alt}
      width={image.width}
      height={image.height}
      className={className}
      decoding="async"
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
    />
  );
}
