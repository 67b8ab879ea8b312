// Decap CMS's config, made from the build's own schemas: one collection per kind of content file.
import type { z } from 'zod';
import { legalSchema, postSchema, siteSchema } from '../content/schemas.ts';
import { collectionSchemas, legalPages, pageSchemas } from '../content/pages.ts';
import { fieldOf, labelOf, objectFields, schemaRules, type CmsField, type FieldOptions } from './fields.ts';

export interface CmsCollection {
  name: string;
  label: string;
  label_singular?: string;
  folder?: string;
  extension?: string;
  format?: string;
  create?: boolean;
  delete?: boolean;
  slug?: string;
  identifier_field?: string;
  summary?: string;
  sortable_fields?: Array<string | { field: string; label?: string; default_sort?: boolean | 'asc' | 'desc' }>;
  fields?: CmsField[];
  files?: Array<{ name: string; label: string; file: string; fields: CmsField[]; preview?: string; preview_path?: string }>;
  /** Where an entry is on the site (Decap's template, `blog/{{slug}}`): View Preview and View Live open it. */
  preview_path?: string;
  /** Which of the site's templates draws its preview (see cms/client/previews.tsx); a file's `preview` draws that file's. */
  preview?: string;
}

export interface CmsConfig {
  backend: { name: string; repo?: string; branch?: string; base_url?: string; auth_endpoint?: string; preview_context?: string; proxy_url?: string };
  load_config_file: false;
  media_folder: string;
  public_folder: string;
  site_url?: string;
  display_url?: string;
  /** 'editorial_workflow' with GitHub: a save is a draft, reviewed as a pull request, until published. */
  publish_mode: 'editorial_workflow' | 'simple';
  locale?: string;
  /** An optional field left empty is left out of the file, as the schemas want (never written as ''). */
  omit_empty_optional_fields: true;
  collections: CmsCollection[];
  /** The schemas' rules across fields, which no form field can carry: checked when an entry is saved. */
  saveRules: Record<string, string[]>;
}

export interface CmsSettings {
  /** The categories the articles already name: offered as choices, beside a new one. */
  categories: readonly string[];
  siteUrl?: string;
  /** Production: the GitHub repository (owner/name), its branch, and where sign-in's OAuth handler answers. */
  repo?: string;
  branch?: string;
  authBaseUrl?: string;
  /** Where each entry is on the site (cms/preview-paths.ts); without them, View Preview opens the home page. */
  previewPaths?: { folders: Record<string, string>; files: Record<string, string> };
}

/**
 * The commit status, on a draft's latest commit, whose `target_url` is the address of that draft's
 * preview: set by the publishing job, and read by the content manager for its "View Preview" link.
 */
export const PREVIEW_STATUS_CONTEXT = 'site/preview';

const IMAGE_PATTERN = '^\\/images\\/';

/** Every string field whose schema is a site image's path becomes Decap's image widget, which uploads to content/images. */
function withImages(field: CmsField): CmsField {
  const out: CmsField = { ...field };
  if (out.widget === 'string' && out.pattern?.[0].startsWith(IMAGE_PATTERN)) out.widget = 'image';
  if (out.fields) out.fields = out.fields.map(withImages);
  if (out.field) out.field = withImages(out.field);
  return out;
}

/** The client's date widget (cms/client/date-widget.tsx): the browser's date input; `time` adds an optional time of day, UK time. */
const date: Partial<CmsField> = { widget: 'date' };
const moment: Partial<CmsField> = { widget: 'date', time: true };
/**
 * The body is edited as the markdown the build reads, saved as typed. Decap's Rich Text mode saved
 * markdown typed into it escaped (`\## Heading`), and wrote back a body it opened in its own marks
 * (`*` bullets and emphasis).
 */
const BODY: CmsField = { name: 'body', label: 'Body', widget: 'markdown', modes: ['raw'] };

/** The schema's fields; an override that names no field of the schema (renamed or removed since) is an error. */
export function fields(schema: z.ZodType, options: FieldOptions = {}): CmsField[] {
  const seen = new Set<string>();
  const out = objectFields(schema, { ...options, seen }).map(withImages);
  const stale = Object.keys(options.overrides ?? {}).filter((at) => !seen.has(at));
  if (stale.length) throw new Error(`the CMS config overrides ${stale.join(', ')}, which the schema no longer has`);
  return out;
}

/** The kinds of content file the CMS edits, from the content's own registries (content/pages.ts). */
export interface ContentKinds {
  /** Folders of YAML entries, content/<name>/<slug>.yaml, each by its schema. */
  folders: Record<string, z.ZodType>;
  /** The YAML pages, content/pages/<name>.yaml. */
  pages: Record<string, z.ZodType>;
  /** The markdown pages, content/pages/<name>.md. */
  legal: readonly string[];
}
export const contentKinds: ContentKinds = { folders: collectionSchemas, pages: pageSchemas, legal: legalPages };

/**
 * What the CMS says of a folder beyond its schema (its names, how an entry is listed, which preview
 * draws it); any other folder is listed by its name, and previewed as its routes draw its entries.
 */
const FOLDER_DETAILS: Record<string, Partial<CmsCollection>> = {
  'case-studies': { label: 'Case studies', label_singular: 'Case study', identifier_field: 'title', summary: '{{client}}: {{title}}', preview: 'caseStudy' },
  services: { label: 'Services', label_singular: 'Service', identifier_field: 'name', summary: '{{name}}', preview: 'service' },
};

function folderCollection(name: string, list: CmsField[], previewPath?: string): CmsCollection {
  const title = list.find((f) => f.name === 'title' || f.name === 'name')?.name ?? list.find((f) => f.widget === 'string')?.name;
  return {
    name, label: labelOf(name), folder: `content/${name}`, extension: 'yaml', format: 'yaml', create: true, slug: '{{slug}}',
    ...(title ? { identifier_field: title, summary: `{{${title}}}` } : {}),
    preview: 'folder',
    ...FOLDER_DETAILS[name],
    ...(previewPath !== undefined ? { preview_path: previewPath } : {}),
    fields: list,
  };
}

/** Each saved rule named by its collection (and file), for the save's message and the docs. */
function rulesOf(fieldsList: CmsField[], schema: z.ZodType): string[] {
  const walk = (list: CmsField[]): string[] => list.flatMap((f) => [...(f.saveRules ?? []), ...walk(f.fields ?? [])]);
  return [...schemaRules(schema), ...walk(fieldsList)];
}
function stripRules(list: CmsField[]): CmsField[] {
  return list.map(({ saveRules: _, ...f }) => ({ ...f, ...(f.fields ? { fields: stripRules(f.fields) } : {}) }));
}

/** Decap CMS's config for this site, from the schemas the build enforces. */
export function cmsConfig(settings: CmsSettings, kinds: ContentKinds = contentKinds): CmsConfig {
  const saveRules: Record<string, string[]> = {};
  const keep = (key: string, list: CmsField[], schema: z.ZodType) => {
    const rules = rulesOf(list, schema);
    if (rules.length) saveRules[key] = rules;
    return stripRules(list);
  };

  const postFields = keep('blog', fields(postSchema, {
    overrides: {
      date,
      publishDate: moment,
      expiryDate: moment,
      // A select of the categories in use, and a box for a new one (the client's 'categories' widget).
      categories: (f) => ({ ...f, widget: 'categories', options: [...settings.categories], field: undefined }),
      // A new article starts as a draft: kept out of production builds until the author unticks it.
      draft: { default: true },
    },
  }), postSchema);

  const paths = settings.previewPaths;
  const folderPath = (name: string) => (paths?.folders[name] !== undefined ? { preview_path: paths.folders[name] } : {});
  const filePath = (key: string) => (paths?.files[key] ? { preview_path: paths.files[key] } : {});
  const collections: CmsCollection[] = [
    {
      name: 'blog', label: 'Articles', label_singular: 'Article', folder: 'content/blog', extension: 'md', format: 'frontmatter',
      create: true, slug: '{{slug}}', identifier_field: 'title', summary: '{{title}} ({{date}})', sortable_fields: [{ field: 'date', label: 'Date', default_sort: 'desc' }, 'title'],
      fields: [...postFields, BODY], preview: 'blogPost', ...folderPath('blog'),
    },
    ...Object.entries(kinds.folders).map(([name, schema]) => folderCollection(name, keep(name, fields(schema), schema), paths?.folders[name])),
    {
      name: 'pages', label: 'Pages', format: 'yaml', create: false, delete: false,
      files: [
        ...Object.entries(kinds.pages).map(([name, schema]) => ({
          name, label: `Page: ${name}`, file: `content/pages/${name}.yaml`, fields: keep(`pages/${name}`, fields(schema), schema), preview: 'page', ...filePath(`pages/${name}`),
        })),
      ],
    },
    // Decap reads every file of a collection in the collection's one format: the legal pages, markdown
    // with front matter beside the YAML pages, are a collection of their own.
    {
      name: 'legal', label: 'Legal pages', format: 'frontmatter', create: false, delete: false,
      files: kinds.legal.map((name) => ({
        name, label: `Page: ${name}`, file: `content/pages/${name}.md`, fields: [...keep(`legal/${name}`, fields(legalSchema), legalSchema), BODY], preview: 'legal', ...filePath(`legal/${name}`),
      })),
    },
    {
      name: 'site', label: 'Site settings', format: 'yaml', create: false, delete: false,
      files: [{ name: 'site', label: 'Site settings', file: 'content/site.yaml', fields: keep('site', fields(siteSchema), siteSchema), preview: 'site' }],
    },
  ];

  return {
    backend: {
      name: 'github', repo: settings.repo ?? 'owner/site', branch: settings.branch ?? 'main', preview_context: PREVIEW_STATUS_CONTEXT,
      ...(settings.authBaseUrl ? { base_url: settings.authBaseUrl, auth_endpoint: 'auth' } : {}),
    },
    // Through GitHub a save is a draft (a branch and a pull request), live only once published.
    publish_mode: 'editorial_workflow',
    load_config_file: false,
    media_folder: 'content/images',
    public_folder: '/images',
    ...(settings.siteUrl ? { site_url: settings.siteUrl, display_url: settings.siteUrl } : {}),
    locale: 'en',
    omit_empty_optional_fields: true,
    collections,
    saveRules,
  };
}

/**
 * The config `site serve` gives /admin: the same collections, saved through serve's local API
 * (`proxyUrl`), each save written straight into content/. An author at their own checkout commits
 * (and opens a pull request) themselves, so there are no drafts here: Decap's local backend has no
 * branches to keep them in.
 */
export function localCmsConfig(settings: CmsSettings, proxyUrl: string): CmsConfig {
  return { ...cmsConfig(settings), backend: { name: 'proxy', proxy_url: proxyUrl }, publish_mode: 'simple' };
}

/** The schema the build checks an entry of the CMS's collection (and file) by, and whether a markdown body (the CMS's `body`, outside the schema) goes with it. */
export function entrySchema(collection: string, file?: string, kinds: ContentKinds = contentKinds): { schema: z.ZodType; body: boolean } | undefined {
  if (collection === 'blog') return { schema: postSchema, body: true };
  if (collection === 'site') return { schema: siteSchema, body: false };
  if (collection === 'pages') return file && Object.hasOwn(kinds.pages, file) ? { schema: kinds.pages[file]!, body: false } : undefined;
  if (collection === 'legal') return file && kinds.legal.includes(file) ? { schema: legalSchema, body: true } : undefined;
  const folder = Object.hasOwn(kinds.folders, collection) ? kinds.folders[collection] : undefined;
  return folder ? { schema: folder, body: false } : undefined;
}

/** A collection's fields by name, for the tests and the previews. */
export function collectionFields(config: CmsConfig, name: string): CmsField[] {
  const c = config.collections.find((x) => x.name === name);
  if (!c?.fields) throw new Error(`no folder collection ${name}`);
  return c.fields;
}

export { fieldOf };
