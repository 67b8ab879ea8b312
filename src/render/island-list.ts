import type { RenderedPage } from './page.tsx';

// Kept apart from page.tsx, which loads React: the build and its cache read these on the CLI's side.

/** A page's islands as plain lists, for a file (the build cache, dist's manifest), and back. */
export type IslandList = Array<[string, string[]]>;
export const islandList = (islands: RenderedPage['islands']): IslandList => [...islands].map(([name, s]) => [name, [...s]]);
export const islandMap = (list: IslandList) => new Map(list.map(([name, s]) => [name, new Set(s)])) as RenderedPage['islands'];
