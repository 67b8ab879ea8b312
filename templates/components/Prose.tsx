import { useContext } from 'react';
import { ImageCollectorContext } from '../../src/page-api/images.ts';
import type { ImageUse } from '../../src/page-api/images.ts';

/** A rendered markdown body; its images are reported as used by this page. */
export function Prose({ html, images, className = 'prose' }: { html: string; images: ImageUse[]; className?: string }) {
  const collector = useContext(ImageCollectorContext);
  for (const use of images) collector?.add(use);
  return <div className={className} dangerouslySetInnerHTML={{ __html: html }} />;
}
