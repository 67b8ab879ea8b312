import type { ReactNode } from 'react';
import { Header } from './Header.tsx';
import { Footer } from './Footer.tsx';
import { Island } from '../../src/page-api/island.tsx';
import CookieConsent from '../../islands/cookie-consent.tsx';
import { useSite } from '../../src/page-api/site-context.tsx';

/** The chrome around every page: skip link, header with navigation, main, footer, cookie bar, toasts. */
export function Layout({ children }: { children: ReactNode }) {
  const { settings } = useSite();
  return (
    <>
      <a className="skip-link" href="#main">Skip to content</a>
      <Header />
      <main id="main" tabIndex={-1}>{children}</main>
      <Footer />
      <Island component={CookieConsent} hydrate="interaction" props={{ version: settings.cookiePolicyVersion, policyHref: '/privacy-policy' }} />
      <section className="toaster" data-toaster aria-label="Notifications">
        <ol aria-live="polite" />
      </section>
    </>
  );
}
