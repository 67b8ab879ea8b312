import path from 'node:path';
import { BuildCache } from '../../src/cache/build-cache.ts';
import { SourceIndex } from '../../src/cache/source-index.ts';
import { isArticleFile, loadSite, type Site } from '../../src/content/load.ts';
import { parseMarkdownFile, type LoadedMarkdown, type ParsedMarkdownFile } from '../../src/content/markdown-file.ts';

/**
 * A load of `dir`'s content as the build makes it (markdown through the build cache, and the cache's
 * record of what it read, both saved after), with what the load handed the cache and what the cache
 * handed back for each markdown file. `listAheadFrom`: the articles' folder listed ahead, as a build
 * of a large blog lists it; `beforeLoad`: what happens between that listing and the load.
 */
export async function cachedLoad(dir: string, options: { listAheadFrom?: number; beforeLoad?: () => Promise<void> } = {}): Promise<{ site: Site; jobs: LoadedMarkdown[]; handed: ParsedMarkdownFile[] }> {
  const sources = SourceIndex.open(dir);
  // As a build of a large blog does: the articles' folder listed with its stats in a thread of its own, from this many known files.
  if (options.listAheadFrom !== undefined) {
    sources.listAhead(path.join(dir, 'content', 'blog'), options.listAheadFrom);
    await sources.listedStats(path.join(dir, 'content', 'blog'));
  }
  await options.beforeLoad?.();
  const cache = await BuildCache.open(dir, undefined, sources);
  const jobs: LoadedMarkdown[] = [];
  const handed: ParsedMarkdownFile[] = [];
  try {
    const site = await loadSite(path.join(dir, 'content'), async (batch) => {
      jobs.push(...batch);
      const results = await cache.parse(batch, 'markdown-code', (missing) => Promise.all(missing.map(parseMarkdownFile)), (job) => isArticleFile(job.rel));
      handed.push(...results);
      return results;
    }, cache.sources);
    return { site, jobs, handed };
  } finally {
    await cache.save();
  }
}
