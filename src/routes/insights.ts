import type { Site } from '../content/load.ts';
import type { Route } from './route.ts';

/** The routes of the insights pages. */
export function insightsRoutes(_site: Site): Route[] {
  return [];
}
