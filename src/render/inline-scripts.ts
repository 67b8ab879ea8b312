import type { SiteSettings } from '../content/schemas.ts';

/** The not-found page tells developers which path was missing (docs/product-rules.md#pages-and-routes). */
const LOG_MISSING_PATH = `if(document.documentElement.dataset.status==="404")console.warn("404: no page at",location.pathname);`;

/**
 * Consent mode defaults before any tag (docs/product-rules.md#after-sending), then the stored choice re-applied, or the
 * cookie bar asked for by marking <html> before the body paints: no flash for returning visitors.
 * Mirrors islands/shared/consent.ts, which handles the choices the visitor makes later.
 */
function consentDefaults(version: number): string {
  return `(function(){var w=window,h=document.documentElement;w.dataLayer=w.dataLayer||[];
w.gtag=w.gtag||function(){w.dataLayer.push(arguments)};
w.gtag("consent","default",{analytics_storage:"denied",ad_storage:"denied",ad_user_data:"denied",ad_personalization:"denied",personalization_storage:"denied",functionality_storage:"granted",security_storage:"granted"});
w.dataLayer.push({event:"consent_default",analytics_consent:false,marketing_consent:false});
var c=null;try{var raw=localStorage.getItem("cookieConsent");if(raw!==null){c=JSON.parse(raw);if(!c||typeof c.analytics!=="boolean"||typeof c.marketing!=="boolean")throw new Error("unexpected shape")}}catch(e){console.error("Ignoring the stored cookie preference",e);c=null}
if(c&&c.version===${version}){var g=function(b){return b?"granted":"denied"};
w.gtag("consent","update",{analytics_storage:g(c.analytics),ad_storage:g(c.marketing),ad_user_data:g(c.marketing),ad_personalization:g(c.marketing),personalization_storage:g(c.marketing)});
w.dataLayer.push({event:"consent_update",analytics_consent:c.analytics,marketing_consent:c.marketing})}else h.setAttribute("data-consent","ask")})();`;
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
