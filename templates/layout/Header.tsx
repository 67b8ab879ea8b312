import { useSite } from '../../src/page-api/site-context.tsx';
import { Island } from '../../src/page-api/island.tsx';
import MobileMenu from '../../islands/mobile-menu.tsx';
import { Img } from '../components/Img.tsx';
import { MenuIcon } from '../../islands/shared/icons.tsx';
import { NAV_CTA, NAV_LINKS, isCurrent } from './nav.ts';

export function Header() {
  const { settings, url } = useSite();
  return (
    <header className="site-header">
      <div className="container">
        <a className="brand" href="/" aria-label={`${settings.name}, home`}>
          {settings.logo && <Img src={settings.logo} alt="" priority />}
          <span aria-hidden="true">{settings.name}</span>
        </a>
        <nav aria-label="Main">
          <ul className="nav-links">
            {NAV_LINKS.map((link) => (
              <li key={link.href}>
                <a href={link.href} aria-current={isCurrent(link.href, url) ? 'page' : undefined}>{link.label}</a>
              </li>
            ))}
            <li><a className="button button--secondary" href={NAV_CTA.href}>{NAV_CTA.label}</a></li>
          </ul>
          {/* Without script the menu button cannot open; this link to the footer's navigation stands in (CSS hides the button). */}
          <noscript><a className="menu-toggle" href="#footer-nav"><MenuIcon /> Menu</a></noscript>
          <Island component={MobileMenu} hydrate="interaction" props={{ links: NAV_LINKS.map((l) => ({ ...l, current: isCurrent(l.href, url) })), cta: NAV_CTA, title: settings.name }} />
        </nav>
      </div>
    </header>
  );
}
