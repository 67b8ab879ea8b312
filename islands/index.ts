import MobileMenu from './mobile-menu.tsx';
import Carousel from './carousel.tsx';
import Accordion from './accordion.tsx';
import CookieConsent from './cookie-consent.tsx';
import CookieSettings from './cookie-settings.tsx';
import ContactForm from './contact-form.tsx';
import AssessmentForm from './assessment-form.tsx';

/**
 * Every island, by the name its chunk and marker carry. The name is the file's name in islands/,
 * which is how the bundler finds the code to hydrate.
 */
export const islands = {
  'mobile-menu': MobileMenu,
  carousel: Carousel,
  accordion: Accordion,
  'cookie-consent': CookieConsent,
  'cookie-settings': CookieSettings,
  'contact-form': ContactForm,
  'assessment-form': AssessmentForm,
};

export type IslandName = keyof typeof islands;

/** Islands that are plain modules (islands/<name>.ts, default export `(root, props) => void`), no React. */
export const scriptIslands = ['post-card-toast', 'reviews-widget', 'search'] as const;

export type ScriptIslandName = (typeof scriptIslands)[number];
