// The CMS at /admin: Decap CMS, its config fetched from /admin/config.json (made from the build's
// schemas), the site's categories widget, and each collection's preview drawn by the site's templates.
import CMS from 'decap-cms-app';
import { CategoriesControl, CategoriesPreview } from './categories-widget.tsx';
import { registerPreviews, type PreviewContext } from './previews.tsx';
import { CMS_TOKEN_META, CMS_TOKEN_PARAM } from '../admin-page.ts';

interface Config { collections: Array<Record<string, unknown>>; saveRules?: unknown; previewStyles?: string[]; previewContext: PreviewContext; [key: string]: unknown }

async function start() {
  const config = await (await fetch('/admin/config.json', { cache: 'no-store' })).json() as Config;
  const { saveRules: _, previewStyles = [], previewContext, ...rest } = config;
  const collections = config.collections.map(({ preview: __, ...c }) => c);
  // site serve's local API takes the token its /admin page carries: Decap's proxy backend posts to this address.
  const backend = rest.backend as { name: string; proxy_url?: string };
  const token = document.querySelector<HTMLMetaElement>(`meta[name="${CMS_TOKEN_META}"]`)?.content;
  if (backend.proxy_url && token) rest.backend = { ...backend, proxy_url: `${backend.proxy_url}?${CMS_TOKEN_PARAM}=${encodeURIComponent(token)}` };
  CMS.registerWidget('categories', CategoriesControl as never, CategoriesPreview as never);
  for (const style of previewStyles) CMS.registerPreviewStyle(style);
  registerPreviews(CMS, config.collections, previewContext);
  CMS.init({ config: { ...rest, collections } as never });
}

void start();
