import { useEffect, useRef } from 'react';
import { ConsentPreferences } from './shared/CookieDialog.tsx';
import { useConsent } from './shared/use-consent.ts';

export interface CookieConsentProps { version: number; policyHref: string }

/**
 * The 'Cookie Consent' bar. It is in every page's HTML but shown only by CSS when the head script
 * found no valid stored choice, so without JavaScript (and for returning visitors) it never shows.
 */
export default function CookieConsent({ version, policyHref }: CookieConsentProps) {
  const [state, act] = useConsent(version);
  const opener = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (!state.dialog && wasOpen.current) (state.banner ? opener.current : document.getElementById('main'))?.focus();
    wasOpen.current = state.dialog;
  }, [state.dialog, state.banner]);

  return (
    <>
      <section className="cookie-bar" aria-labelledby="cookie-bar-title">
        <div className="container cookie-bar__inner">
          <div>
            <h2 id="cookie-bar-title" className="cookie-bar__title">Cookie Consent</h2>
            <p className="cookie-bar__text">We use necessary cookies to run this site. With your permission we would also use analytics and marketing cookies to understand what helps visitors. <a href={policyHref}>How we use cookies</a></p>
          </div>
          <div className="cookie-bar__actions">
            <button ref={opener} type="button" className="button button--ghost" onClick={() => act({ type: 'openPreferences' })}>Preferences</button>
            <button type="button" className="button button--ghost" onClick={() => act({ type: 'necessaryOnly' })}>Necessary Only</button>
            <button type="button" className="button button--primary" onClick={() => act({ type: 'acceptAll' })}>Accept All</button>
          </div>
        </div>
      </section>
      <ConsentPreferences state={state} act={act} policyHref={policyHref} />
    </>
  );
}
