import { useContext } from 'react';
import { ImageCollectorContext } from '../../src/render/image-collector.ts';
import type { ImageUse } from '../../src/images/picture.ts';

/** A rendered markdown body; its images are reported as used by this page. */
export function Prose({ html, images, className = 'prose' }: { html: string; images: ImageUse[]; className?: string }) {
  const collector = useContext(ImageCollectorContext);
  for (const use of images) collector?.add(use);
  return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
