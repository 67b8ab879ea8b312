/** Reading a built site: its files, its HTML pages and the routing table the build wrote beside it. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { DEPLOY_DIR, deployFilesOf } from '../output/layout.ts';
import { SEAL_FILE } from '../output/seal.ts';
import { pageFile, type RoutingTable } from '../url-resolution/resolve.ts';
import { safeDecode } from './target.ts';

export interface BuiltSite {
  /** Every file under the dir, as root-relative URL paths: '/assets/site-1a2b.css'. */
  files: Set<string>;
  /** The HTML files among them, with their text. */
  html: Array<{ file: string; text: string }>;
}

async function walk(dir: string, prefix: string, into: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  await Promise.all(entries.map(async (entry) => {
    // The build's completion manifest is not part of the site: never deployed or served.
    if (prefix === '' && entry.name === SEAL_FILE) return;
    const rel = prefix + '/' + entry.name;
    if (entry.isDirectory()) await walk(path.join(dir, entry.name), rel, into);
    else if (entry.isFile()) into.push(rel);
  }));
}

export async function readBuiltSite(dir: string): Promise<BuiltSite> {
  const files: string[] = [];
  await walk(dir, '', files);
  files.sort();
  const htmlFiles = files.filter((f) => f.endsWith('.html'));
  const html = await Promise.all(htmlFiles.map(async (file) => ({ file, text: await readFile(path.join(dir, file), 'utf8') })));
  return { files: new Set(files), html };
}

/**
 * The URL each page file of our build answers, by the table's page URLs: '/about.html' → '/about',
 * '/index.html' → '/'. Any other file answers at its own name: '/404.html' stays.
 */
export function pageUrlOf(table: RoutingTable): (file: string) => string {
  const pageFiles = new Set(table.pageUrls.map((url) => safeDecode(pageFile(url))));
  return (file) => (file === '/index.html' ? '/' : pageFiles.has(file) ? file.slice(0, -'.html'.length) : file);
}

/** The URL a plain static host serves a file at: '/docs/index.html' → '/docs/', '/docs/my page.html' → '/docs/my%20page.html'. */
export function staticUrlOf(file: string): string {
  const url = file.split('/').map(encodeURIComponent).join('/');
  return url.endsWith('/index.html') ? url.slice(0, -'index.html'.length) : url;
}

/** Where the build writes the routing table for a dist dir: `<parent>/.site/deploy/routing.json`. */
export function routingTablePath(dir: string): string {
  return path.join(deployFilesOf(dir), 'routing.json');
}

function isRoutingTable(value: unknown): value is RoutingTable {
  if (typeof value !== 'object' || value === null) return false;
  const t = value as Record<string, unknown>;
  return Array.isArray(t.pageUrls) && t.pageUrls.every((p) => typeof p === 'string')
    && typeof t.redirects === 'object' && t.redirects !== null && !Array.isArray(t.redirects)
    && Array.isArray(t.fallbacks) && typeof t.notFound === 'string';
}

/** The build's table; `table` undefined for a folder our build did not write (a plain static site). */
export type TableSource = { table: RoutingTable | undefined; from: string } | { error: string };

/** The build's routing table, or none when the folder has no .site/deploy/routing.json beside it. */
export async function loadRoutingTable(dir: string): Promise<TableSource> {
  const file = routingTablePath(dir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { table: undefined, from: `a plain static host (no ${path.join(DEPLOY_DIR, 'routing.json')})` };
    return { error: `cannot read ${file}: ${(e as Error).message}` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { error: `${file} is not valid JSON: ${(e as Error).message}` };
  }
  if (!isRoutingTable(value)) return { error: `${file} is not a routing table (expected pageUrls, redirects, fallbacks, notFound)` };
  return { table: value, from: file };
}
