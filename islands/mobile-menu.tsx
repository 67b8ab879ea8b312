import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { CloseIcon, MenuIcon } from './shared/icons.tsx';
import { trapTab } from './shared/focus.ts';

export interface MobileMenuProps {
  links: Array<{ label: string; href: string; current: boolean }>;
  cta: { label: string; href: string };
  title: string;
}

/**
 * The navigation under 768 px: a modal dialog of links (never role=menu). The toggle is a button
 * from the server HTML on, so it announces what it does before hydration; the runtime replays the
 * click that wakes the island. Without script the header's <noscript> link stands in for it.
 */
export default function MobileMenu({ links, cta, title }: MobileMenuProps) {
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const close = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const wasOpen = useRef(false);

  useEffect(() => {
    if (open) close.current?.focus();
    else if (wasOpen.current) toggle.current?.focus();
    wasOpen.current = open;
    if (!open) return;
    const onKey = (event: globalThis.KeyboardEvent) => { if (event.key === 'Escape') setOpen(false); };
    const wide = window.matchMedia('(min-width: 768px)');
    const onWide = () => { if (wide.matches) setOpen(false); };
    document.addEventListener('keydown', onKey);
    wide.addEventListener('change', onWide);
    return () => { document.removeEventListener('keydown', onKey); wide.removeEventListener('change', onWide); };
  }, [open]);

  const onPanelKey = (event: KeyboardEvent<HTMLDivElement>) => { if (panel.current) trapTab(event.nativeEvent, panel.current); };

  return (
    <>
      <button ref={toggle} type="button" className="menu-toggle" data-fallback-href="#footer-nav" aria-expanded={open} aria-controls={open ? 'mobile-menu' : undefined} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <MenuIcon /> Menu
      </button>
      {open && (
        <div id="mobile-menu" className="mobile-menu">
          <div className="mobile-menu__overlay" aria-hidden="true" onClick={() => setOpen(false)} data-testid="menu-overlay" />
          <div ref={panel} className="mobile-menu__panel" role="dialog" aria-modal="true" aria-labelledby="mobile-menu-title" onKeyDown={onPanelKey}>
            <div className="mobile-menu__top">
              <p id="mobile-menu-title" className="mobile-menu__title">{title}</p>
              <button ref={close} type="button" className="mobile-menu__close" aria-label="Close menu" onClick={() => setOpen(false)}><CloseIcon /></button>
            </div>
            <nav aria-label="Main (mobile)">
              <ul>
                {links.map((link) => (
                  <li key={link.href}><a href={link.href} aria-current={link.current ? 'page' : undefined}>{link.label}</a></li>
                ))}
              </ul>
              <a className="button button--primary" href={cta.href}>{cta.label}</a>
            </nav>
          </div>
        </div>
      )}
    </>
  );
}
