import path from 'node:path';
import { BuildCache } from '../../src/cache/build-cache.ts';
import { loadSite, type Site } from '../../src/content/load.ts';
import { parseMarkdownFile } from '../../src/content/markdown-file.ts';
import { isArticleFile, type LoadedMarkdown, type ParsedMarkdownFile } from '../../src/content/markdown-job.ts';

/**
 * A load of `dir`'s content as the build makes it (markdown through the build cache, and the cache's
 * record of what it read, both saved after), with what the load handed the cache and what the cache
 * handed back for each markdown file.
 */
export async function cachedLoad(dir: string): Promise<{ site: Site; jobs: LoadedMarkdown[]; handed: ParsedMarkdownFile[] }> {
  const cache = await BuildCache.open(dir);
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
