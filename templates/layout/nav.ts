/** The site's navigation labels and addresses: the chrome's structure, not page copy. */
export const NAV_LINKS = [
  { label: 'About', href: '/about' },
  { label: 'DIAlog', href: '/dialog' },
  { label: 'Services', href: '/services' },
  { label: 'Our Work', href: '/testimonials' },
  { label: 'Insights', href: '/blog' },
] as const;

export const NAV_CTA = { label: "Let's Talk Data", href: '/contact' } as const;

export const FOOTER_LINKS = [
  { label: 'Home', href: '/' },
  { label: 'About', href: '/about' },
  { label: 'Explore DIAlog', href: '/dialog' },
  { label: 'Services', href: '/services' },
  { label: 'Our Work', href: '/testimonials' },
  { label: 'Insights', href: '/blog' },
  { label: 'Contact', href: '/contact' },
  { label: 'Privacy Policy', href: '/privacy-policy' },
  { label: 'Terms of Service', href: '/terms-of-service' },
] as const;

/** A nav link is current on its own page and on the pages beneath it. */
export function isCurrent(href: string, url: string): boolean {
  return href === '/' ? url === '/' : url === href || url.startsWith(`${href}/`);
}
