import { createContext, useContext } from 'react';
import type { SiteSettings } from '../content/schemas.ts';
import type { SiteImage } from '../images/site-image.ts';

/** What every template may read besides its own props: settings, images, the page's URL, the build year. */
export interface RenderContext {
  settings: SiteSettings;
  images: Record<string, SiteImage>;
  url: string;
  /** The build's time, passed in so rendering stays pure. */
  year: number;
}

export const SiteContext = createContext<RenderContext | null>(null);

export function useSite(): RenderContext {
  const ctx = useContext(SiteContext);
  if (!ctx) throw new Error('useSite() used outside a page render');
  return ctx;
}

export { assessmentHref, NEW_TAB_HINT } from '../content/assessment-forms.ts';
