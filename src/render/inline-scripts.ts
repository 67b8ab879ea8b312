import type { SiteSettings } from '../content/schemas.ts';
import { CONSENT_CATEGORIES, CONSENT_EVENTS, CONSENT_KEY, NO_CONSENT, SIGNALS_OF, consentField, defaultSignals, type ConsentChoice } from '../../islands/shared/consent.ts';

/** The not-found page tells developers which path was missing (docs/product-rules.md#pages-and-routes). */
const LOG_MISSING_PATH = `if(document.documentElement.dataset.status==="404")console.warn("404: no page at",location.pathname);`;

/** An object literal of `key:expression` pairs, written as compactly as a person would by hand. */
const literal = (pairs: [string, string][]) => `{${pairs.map(([key, value]) => `${key}:${value}`).join(',')}}`;

/**
 * Consent mode defaults before any tag (docs/product-rules.md#after-sending), then the stored choice re-applied, or the
 * cookie bar asked for by marking <html> before the body paints: no flash for returning visitors.
 * Every consent fact in it (the key, the defaults, the signals each choice decides, the events) comes
 * from islands/shared/consent.ts, which handles the choices the visitor makes later.
 */
function consentDefaults(version: number): string {
  const defaults = literal(Object.entries(defaultSignals()).map(([signal, value]) => [signal, JSON.stringify(value)]));
  const event = (name: string, value: (category: keyof ConsentChoice) => string) =>
    literal([['event', JSON.stringify(name)], ...CONSENT_CATEGORIES.map((category): [string, string] => [consentField(category), value(category)])]);
  const wrongShape = CONSENT_CATEGORIES.map((category) => `typeof c.${category}!=="boolean"`).join('||');
  const update = literal(CONSENT_CATEGORIES.flatMap((category) => SIGNALS_OF[category].map((signal): [string, string] => [signal, `g(c.${category})`])));
  return `(function(){var w=window,h=document.documentElement;w.dataLayer=w.dataLayer||[];
w.gtag=w.gtag||function(){w.dataLayer.push(arguments)};
w.gtag("consent","default",${defaults});
w.dataLayer.push(${event(CONSENT_EVENTS.default, (category) => String(NO_CONSENT[category]))});
var c=null;try{var raw=localStorage.getItem(${JSON.stringify(CONSENT_KEY)});if(raw!==null){c=JSON.parse(raw);if(!c||${wrongShape})throw new Error("unexpected shape")}}catch(e){console.error("Ignoring the stored cookie preference",e);c=null}
if(c&&c.version===${version}){var g=function(b){return b?"granted":"denied"};
w.gtag("consent","update",${update});
w.dataLayer.push(${event(CONSENT_EVENTS.update, (category) => `c.${category}`)})}else h.setAttribute("data-consent","ask")})();`;
}

/** Google Tag Manager, only when a container is configured, and always after the consent defaults. */
function tagManager(id: string): string {
  return `(function(w,d,id){w.dataLayer.push({"gtm.start":Date.now(),event:"gtm.js"});var s=d.createElement("script");s.async=true;s.src="https://www.googletagmanager.com/gtm.js?id="+id;d.head.appendChild(s)})(window,document,${JSON.stringify(id)});`;
}

/**
 * The inline scripts every page carries in its head. They are identical on every page, so the
 * Content-Security-Policy can allow them by hash instead of 'unsafe-inline'.
 */
export function inlineScripts(settings: SiteSettings): string[] {
  return [consentDefaults(settings.cookiePolicyVersion), LOG_MISSING_PATH, ...(settings.tagManagerId ? [tagManager(settings.tagManagerId)] : [])];
}
