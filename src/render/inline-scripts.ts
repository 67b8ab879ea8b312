import type { SiteSettings } from '../content/schemas.ts';

/** The not-found page tells developers which path was missing (SPEC §2 'Not found'). */
const LOG_MISSING_PATH = `if(document.documentElement.dataset.status==="404")console.warn("404: no page at",location.pathname);`;

/**
 * The inline scripts every page carries in its head. They are identical on every page, so the
 * Content-Security-Policy can allow them by hash instead of 'unsafe-inline'.
 */
export function inlineScripts(_settings: SiteSettings): string[] {
  return [LOG_MISSING_PATH];
}
