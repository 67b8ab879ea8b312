import { useSite } from '../../src/page-api/site-context.tsx';
import { Img } from '../components/Img.tsx';
import { ClockIcon, MailIcon, PinIcon } from '../../islands/shared/icons.tsx';
import { FOOTER_LINKS } from './nav.ts';
import { Island, ScriptIsland } from '../../src/page-api/island.tsx';
import CookieSettings from '../../islands/cookie-settings.tsx';

export function Footer() {
  const { settings, year } = useSite();
  return (
    <footer className="site-footer">
      <div className="container">
        <div className="footer-grid">
          <div className="footer-brand">
            <a className="brand" href="/" aria-label={`${settings.name}, home`}>
              {settings.logo && <Img src={settings.logo} alt="" />}
              <span aria-hidden="true">{settings.name}</span>
            </a>
            <p>{settings.description}</p>
          </div>
          <nav id="footer-nav" aria-labelledby="footer-nav-heading" tabIndex={-1}>
            <h2 id="footer-nav-heading">Explore</h2>
            <ul className="footer-links">
              {FOOTER_LINKS.map((link) => <li key={link.href}><a href={link.href}>{link.label}</a></li>)}
            </ul>
          </nav>
          <div>
            <h2>Get in touch</h2>
            <ul className="footer-contact">
              <li><a href={`mailto:${settings.email}`}><MailIcon /> {settings.email}</a></li>
              <li><PinIcon /> {settings.location}</li>
              <li><ClockIcon /> {settings.officeHours}</li>
            </ul>
            {settings.reviewsWidgetScript && (
              <ScriptIsland name="reviews-widget" hydrate="visible" props={{ src: settings.reviewsWidgetScript }}>
                <div data-reviews-widget className="reviews-widget" />
              </ScriptIsland>
            )}
          </div>
        </div>
        <div className="footer-bottom">
          <p>© {year} {settings.name}. All rights reserved.</p>
          <Island component={CookieSettings} hydrate="interaction" props={{ version: settings.cookiePolicyVersion, policyHref: '/privacy-policy' }} />
        </div>
      </div>
    </footer>
  );
}
