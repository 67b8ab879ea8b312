// The content manager in the built site: /admin's page, Decap CMS's bundle and its config, which
// signs in to GitHub through the stack's handler and commits to the repository site.yaml names.
import { ADMIN_PATH, CMS_CONFIG, CMS_SCRIPT, adminPage } from '../cms/admin-page.ts';
import { cmsBundle } from '../cms/bundle.ts';
import { cmsConfig } from '../cms/config.ts';
import { previewContext } from '../cms/preview-context.ts';
import { previewPaths } from '../cms/preview-paths.ts';
import type { Route } from '../routes/table.ts';
import type { BundleResult } from '../bundle/bundle.ts';
import type { Site } from '../content/load.ts';
import type { DistFile } from './dist-writer.ts';

export interface BuiltCms {
  files: DistFile[];
  /** The bundle's bytes, and gzipped (level 9): stated in the summary, never held to the page budgets. */
  bytes: number;
  gzip: number;
}

/** /admin's files, or undefined when site.yaml names no repository (or `--no-cms`). */
export async function cmsStage(root: string, site: Site, routes: readonly Route[], assets: BundleResult, now: Date): Promise<BuiltCms | undefined> {
  const { settings } = site;
  if (!settings.cms) return undefined;
  const categories = [...new Set(site.posts.flatMap((p) => p.categories ?? []))].sort();
  const config = {
    ...cmsConfig({ categories, siteUrl: settings.url, repo: settings.cms.repo, branch: settings.cms.branch, authBaseUrl: settings.cms.authUrl, previewPaths: previewPaths(site, routes) }),
    previewStyles: [assets.css],
    previewContext: previewContext(site, routes, now),
  };
  const made = await cmsBundle(root);
  return {
    files: [
      // A page's file, as every page's: /admin answered from /admin.html.
      { file: `${ADMIN_PATH}.html`, contents: adminPage(settings.name) },
      { file: CMS_SCRIPT, contents: made.js },
      { file: CMS_CONFIG, contents: JSON.stringify(config) },
    ],
    bytes: made.js.byteLength,
    gzip: made.gzip,
  };
}
