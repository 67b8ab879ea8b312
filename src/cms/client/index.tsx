// The CMS at /admin: Decap CMS, its config fetched from /admin/config.json (made from the build's
// schemas), the site's widgets (categories, dates, images checked by their path), its words
// (locale.ts, messages.ts), and each collection's preview drawn by the site's templates.
import CMS from 'decap-cms-app';
import { CategoriesControl, CategoriesPreview } from './categories-widget.tsx';
import { DateControl, DatePreview } from './date-widget.tsx';
import { registerPathCheckedImage } from './image-widget.ts';
import { withoutEmptyOptional } from './empty-fields.ts';
import { registerWords } from './locale.ts';
import { clear, reportGitHubRefusals, reportRefusals, show } from './messages.ts';
import { brokenRules } from './save-rules.ts';
import { changedUnderDraft, draftBranch, undoRefusal } from './draft-guard.ts';
import { registerStyleKeeping, withOriginal } from './keep-style.ts';
import { registerPreviews, type PreviewContext } from './previews.tsx';
import { CMS_TOKEN_META, CMS_TOKEN_PARAM } from '../admin-page.ts';
import { registerServeBackend, SERVE_BACKEND } from './named-uploads.ts';
import { keepPreviewButtonsOffThePage } from './preview-buttons.ts';

interface Collection { name: string; fields?: never[]; files?: Array<{ name: string; fields: never[]; preview?: string }>; [key: string]: unknown }
interface Config { collections: Collection[]; saveRules?: unknown; previewStyles?: string[]; previewContext: PreviewContext; [key: string]: unknown }
interface Data { set(key: string, value: unknown): Data; getIn(path: unknown[]): unknown; deleteIn(path: unknown[]): Data; toJS(): Record<string, unknown> }
interface Entry { get(key: string): unknown }

async function start() {
  const config = await (await fetch('/admin/config.json', { cache: 'no-store' })).json() as Config;
  const { saveRules: _, previewStyles = [], previewContext, ...rest } = config;
  // The previews' names are the site's, not Decap's config: left out of what Decap is given.
  const collections = config.collections.map(({ preview: __, files, ...c }) => ({ ...c, ...(files ? { files: files.map(({ preview: _p, ...f }) => f) } : {}) }));
  // site serve's local API takes the token its /admin page carries: Decap's proxy backend posts to this address.
  const backend = rest.backend as { name: string; proxy_url?: string; api_root?: string; repo?: string; branch?: string };
  const token = document.querySelector<HTMLMetaElement>(`meta[name="${CMS_TOKEN_META}"]`)?.content;
  // Through GitHub no server of the site's sees a save: its rules are checked here, and the file's style kept here.
  const github = !backend.proxy_url;
  if (!backend.proxy_url) {
    registerStyleKeeping(CMS);
    reportGitHubRefusals(backend.api_root ?? 'https://api.github.com');
  } else {
    reportRefusals(backend.proxy_url);
    registerServeBackend(CMS, String(rest.media_folder), String(rest.public_folder));
    rest.backend = { ...backend, name: SERVE_BACKEND, proxy_url: token ? `${backend.proxy_url}?${CMS_TOKEN_PARAM}=${encodeURIComponent(token)}` : backend.proxy_url };
  }
  registerWords(CMS);
  keepPreviewButtonsOffThePage(CMS);
  registerPathCheckedImage(CMS);
  CMS.registerWidget('categories', CategoriesControl as never, CategoriesPreview as never);
  CMS.registerWidget('date', DateControl as never, DatePreview as never);
  CMS.registerEventListener({
    name: 'preSave',
    handler: async ({ entry }: { entry: Entry }) => {
      const collection = String(entry.get('collection'));
      const c = config.collections.find((x) => x.name === collection);
      const file = c?.files ? String(entry.get('slug')) : undefined;
      const fields = c?.fields ?? c?.files?.find((f) => f.name === file)?.fields;
      const data = fields ? withoutEmptyOptional(fields, entry.get('data') as Data) : entry.get('data') as Data;
      if (!github) return fields ? data : undefined;
      const path = String(entry.get('path') || (c?.folder ?? collection));
      const broken = brokenRules(collection, file, data.toJS(), path);
      if (broken.length) {
        show(`Not saved. ${broken.join('\n')}`);
        // Thrown, Decap saves nothing and says so (its toast points at the message above).
        throw new Error(broken.join('\n'));
      }
      // A save that would write over a change another author published since (see draft-guard.ts).
      const token = (JSON.parse(localStorage.getItem('decap-cms-user') ?? '{}') as { token?: string }).token ?? '';
      const place = { api: backend.api_root ?? 'https://api.github.com', repo: backend.repo ?? '', branch: backend.branch ?? 'main', token };
      const raw = entry.get('newRecord') ? undefined : entry.get('raw');
      let check: Awaited<ReturnType<typeof changedUnderDraft>>;
      try {
        check = await changedUnderDraft({ ...place, draft: draftBranch(collection, String(entry.get('slug'))) }, { path, ...(typeof raw === 'string' ? { raw } : {}) });
      } catch (error) {
        show(`Not saved: ${error instanceof Error ? error.message : String(error)}. Nothing was published. Your changes are still in the form. Save again to retry.`);
        throw error;
      }
      if (check.undone.length) {
        const said = undoRefusal(check.undone, check.draft);
        show(said);
        throw new Error(said);
      }
      clear();
      return withOriginal(data, entry.get('raw'));
    },
  } as never);
  for (const style of previewStyles) CMS.registerPreviewStyle(style);
  registerPreviews(CMS, config.collections, previewContext);
  CMS.init({ config: { ...rest, collections } as never });
}

void start();
