import { useSite } from '../../src/page-api/site-context.tsx';

/** An image from content/images, with its hashed address and intrinsic size so nothing shifts. */
export function Img({ src, alt, className, priority = false, sizes }: { src: string; alt: string; className?: string; priority?: boolean; sizes?: string }) {
  const image = useSite().images[src];
  if (!image) throw new Error(`image ${src} is not in content/images`);
  return (
    <img
      src={image.src}
      alt={alt}
      width={image.width}
      height={image.height}
      className={className}
      sizes={sizes}
      decoding="async"
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
    />
  );
}
