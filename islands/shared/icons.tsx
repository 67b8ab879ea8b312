import { EXTERNAL_ICON_PATHS } from '../../src/content/assessment-forms.ts';

/** Inline icons, decorative: the control around each one carries the accessible name. */
const base = { className: 'icon', viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round', 'aria-hidden': true, focusable: false } as const;

export const MenuIcon = () => <svg {...base}><path d="M4 6h16M4 12h16M4 18h16" /></svg>;
export const CloseIcon = () => <svg {...base}><path d="M6 6l12 12M18 6L6 18" /></svg>;
export const ArrowLeft = () => <svg {...base}><path d="M15 18l-6-6 6-6" /></svg>;
export const ArrowRight = () => <svg {...base}><path d="M9 18l6-6-6-6" /></svg>;
export const MailIcon = () => <svg {...base}><rect x="3" y="5" width="18" height="14" rx="2" /><path d="M3 7l9 6 9-6" /></svg>;
export const PinIcon = () => <svg {...base}><path d="M12 21s-7-6.2-7-11a7 7 0 0114 0c0 4.8-7 11-7 11z" /><circle cx="12" cy="10" r="2.5" /></svg>;
export const ClockIcon = () => <svg {...base}><circle cx="12" cy="12" r="9" /><path d="M12 7v5l3 2" /></svg>;
export const DocIcon = () => <svg {...base}><path d="M7 3h7l5 5v13H7z" /><path d="M14 3v5h5M10 13h6M10 17h6" /></svg>;
/** Marks a link that opens in a new tab; the link's hidden text says so in words. */
export const ExternalIcon = () => <svg {...base} className="icon icon--external">{EXTERNAL_ICON_PATHS.map((d) => <path key={d} d={d} />)}</svg>;
