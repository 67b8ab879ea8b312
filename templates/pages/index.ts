import { HomePage } from './Home.tsx';
import { NotFoundPage } from './NotFound.tsx';

/** Every page template, by the name routes.ts gives it. */
export const templates = {
  home: HomePage,
  notFound: NotFoundPage,
};
