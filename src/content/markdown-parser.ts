import { createRequire } from 'node:module';
import { isMainThread } from 'node:worker_threads';
import type { Root } from 'mdast';
import type { Plugin } from 'unified';
import { unified } from 'unified';

/** Markdown source → remark's mdast tree (GFM and directives), positions on every node. */
export type ParseMdast = (source: string) => Root;

export interface MarkdownParser { name: 'satteri' | 'remark-parse'; parse: ParseMdast }

/** The one part of satteri the site uses. */
export interface Satteri { markdownToMdast(source: string, options: { features: { gfm: boolean; directive: boolean; frontmatter: boolean } }): unknown }

/**
 * `SITE_MARKDOWN_PARSER=remark-parse` takes the native parser as unloadable: the fallback a
 * platform without satteri's binding gets, warning included, on purpose (to compare, or to test it).
 */
export const PARSER_ENV = 'SITE_MARKDOWN_PARSER';

/**
 * satteri's options. `frontmatter: false`: front matter is front-matter.ts's job, and satteri's default
 * reads a leading '---' block as front matter, which would change a body that opens with a thematic break.
 */
export const SATTERI_OPTIONS = { features: { gfm: true, directive: true, frontmatter: false } } as const;

/** remark-parse with the same syntax: the reference the differential test holds satteri to, and the fallback. */
export function remarkParser(): MarkdownParser {
  // Loaded only when needed: with satteri, no worker pays for micromark's hundred-odd modules.
  const load = (name: string) => (require(name) as { default: Plugin }).default;
  const processor = unified().use(load('remark-parse')).use(load('remark-gfm')).use(load('remark-directive')).freeze();
  // remark-gfm and remark-directive add syntax through `data`: parsing is all, no transformer runs.
  return { name: 'remark-parse', parse: (source) => processor.parse(source) as unknown as Root };
}

export function satteriParser(satteri: Satteri): MarkdownParser {
  return { name: 'satteri', parse: (source) => satteri.markdownToMdast(source, SATTERI_OPTIONS) as Root };
}

// Loaded on first use, not at import: `site --help` never parses markdown. Synchronous (require of
// an ES module, Node ≥ 20.19), so that rendering markdown stays a plain function call.
const require = createRequire(import.meta.url);
const requireSatteri = (): Satteri => require('satteri') as Satteri;

/** Once per process, though the CLI and the build's bundled code each hold a copy of this module. */
const WARNED = Symbol.for('site.markdownParser.warned');

/**
 * satteri when its native binding loads, else remark-parse with one warning line (on the main
 * thread only: workers fall back silently, and the main thread has said it once for the build).
 */
export function chooseParser(load: () => Satteri = requireSatteri, env: NodeJS.ProcessEnv = process.env, warn: (line: string) => void = console.warn): MarkdownParser {
  try {
    if (env[PARSER_ENV] === 'remark-parse') throw new Error(`${PARSER_ENV}=remark-parse`);
    return satteriParser(load());
  } catch (error) {
    const g = globalThis as { [WARNED]?: boolean };
    if (isMainThread && !g[WARNED]) {
      g[WARNED] = true;
      const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
      warn(`site: markdown falls back to remark-parse (same output, slower): satteri's native parser did not load (${reason})`);
    }
    return remarkParser();
  }
}

let chosen: MarkdownParser | undefined;

/** The parser of this process, chosen once. */
export function markdownParser(): MarkdownParser {
  return (chosen ??= chooseParser());
}
