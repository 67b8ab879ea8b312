import { SearchPage } from './SearchPage.tsx';

/** The site search's page. */
export const templates = {
  search: SearchPage,
};
