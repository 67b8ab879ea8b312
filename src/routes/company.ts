import type { Site } from '../content/load.ts';
import type { Route } from './route.ts';

/** The routes of the company pages. */
export function companyRoutes(_site: Site): Route[] {
  return [];
}
