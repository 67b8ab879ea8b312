import type { Site } from '../content/load.ts';
import type { Route } from './route.ts';

/** The routes of the services pages. */
export function servicesRoutes(_site: Site): Route[] {
  return [];
}
