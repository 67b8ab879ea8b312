import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RoutingTable } from '../src/url-resolution/resolve.ts';
import { deployFilesOf } from '../src/output/layout.ts';

/** One address the browser gates visit, and the status the server should answer it with. */
export interface Target { url: string; status: number; label: string }

/** A path that no page will ever have, under a prefix. */
const MISSING = 'quality-gate-no-such-page';

/**
 * Every page of the routing table, and one unknown address per not-found answer: the site's 404
 * page, and each fallback that answers a page of its own (the 'Case Study Not Found' page).
 */
export function targets(table: RoutingTable): Target[] {
  return [
    ...table.pageUrls.map((url) => ({ url, status: 200, label: url })),
    { url: `/${MISSING}`, status: 404, label: `404 (${table.notFound})` },
    ...table.fallbacks.filter((f) => f.file).map((f) => ({ url: `${f.prefix}${MISSING}`, status: f.status, label: `${f.status} (${f.file})` })),
  ];
}

export async function readRoutingTable(distDir: string): Promise<RoutingTable> {
  return JSON.parse(await readFile(path.join(deployFilesOf(distDir), 'routing.json'), 'utf8')) as RoutingTable;
}
