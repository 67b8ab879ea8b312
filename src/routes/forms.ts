import type { SiteContent } from '../content/load.ts';
import type { templates } from '../../templates/pages/forms/index.ts';
import { routeMakers, type RouteOf } from './route.ts';

/** This kind's routes: to its templates only. */
type Route = RouteOf<typeof templates>;
const { page } = routeMakers<typeof templates>();

/** The pages built around a form: contact, the DIAlog assessment, and the thank-you page both lead to. */
export function formRoutes(site: SiteContent): Route[] {
  const { contact, 'dialog-assessment': assessment, 'thank-you': thanks } = site.pages;
  return [
    page('/contact', 'contact', { content: contact }, { title: contact.title, description: contact.description }),
    page('/dialog-assessment', 'assessment', { content: assessment }, { title: assessment.title, description: assessment.description, image: assessment.image.src }),
    page('/thank-you', 'thankYou', { content: thanks }, { title: thanks.title, description: thanks.description, noindex: true }),
  ];
}
