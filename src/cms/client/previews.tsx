// Each collection's preview: the site's own template for that page type, inside the site's layout,
// drawn from the entry being edited, with the site's stylesheet (registered in index.tsx). An
// article's body goes through the build's markdown steps (renderMarkdown), parsed by remark-parse,
// the parser the build falls back to and holds satteri's output to.
import { useEffect, useState, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type CMS from 'decap-cms-app';
import { SiteContext, type RenderContext } from '../../page-api/site-context.tsx';
import { IslandCollector, IslandCollectorContext } from '../../page-api/island.tsx';
import { ImageCollector, ImageCollectorContext } from '../../page-api/images.ts';
import { renderMarkdown } from '../../content/markdown.ts';
import type { MarkdownParser } from '../../content/markdown-parser.ts';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import remarkDirective from 'remark-directive';
import type { Root } from 'mdast';
import { summary } from '../../routes/blog.ts';
import { caseStudyImageAlt } from '../../routes/company.ts';
import type { Post, CaseStudy } from '../../content/load.ts';
import { Layout } from '../../../templates/layout/Layout.tsx';
import { BlogPostPage } from '../../../templates/pages/blog/BlogPost.tsx';
import { CaseStudyPage } from '../../../templates/pages/company/CaseStudyPage.tsx';
import { ServicePage, type Service } from '../../../templates/pages/services/ServicePage.tsx';
import { serviceSchema } from '../../content/services-schema.ts';
import { templatesByKind } from 'site:page-templates';
import { templatesOf } from '../../routes/template-map.ts';
import { LegalPage } from '../../../templates/pages/legal/LegalPage.tsx';
import { NotFoundPage } from '../../../templates/pages/NotFound.tsx';
import { siteSchema } from '../../content/schemas.ts';
import { collectionSchemas, pageSchemas } from '../../content/pages.ts';
import type { z } from 'zod';
import type { PreviewContext } from './preview-types.ts';

type PageTemplate = (props: Record<string, unknown>) => ReactNode;
/** Every kind's templates (the registry's modules, bundled with the client: src/bundle/page-templates.ts). */
const pageTemplates = templatesOf<PageTemplate>(templatesByKind);

type PreviewApi = typeof CMS;
type GetAsset = (path: string) => { toString(): string } | undefined;
interface PreviewProps { entry: { get(key: string): unknown; getIn(path: string[]): unknown }; getAsset: GetAsset; window?: Window }
export type { PreviewContext };

const plain = (value: unknown): Record<string, unknown> => {
  const v = value && typeof (value as { toJS?: unknown }).toJS === 'function' ? (value as { toJS(): unknown }).toJS() : value;
  return (v ?? {}) as Record<string, unknown>;
};
const slugOf = (entry: PreviewProps['entry']) => String(entry.get('slug') ?? 'new-entry') || 'new-entry';

const IMAGE_PATH = /^\/images\/[\w.-]+\.(svg|png|jpe?g|webp|avif)$/i;

/**
 * The site's images as the preview shows them. An SVG the build knows is served as the site serves
 * it. A raster image is shown as its file itself, one <img> read through Decap (its responsive
 * variants are made by the build, for the places the built pages use it); so is an image uploaded
 * since the last build, which the site has not yet heard of.
 */
export function previewImages(known: RenderContext['images'], getAsset: GetAsset): RenderContext['images'] {
  return new Proxy(known, {
    get(target, key) {
      const image = Reflect.get(target, key) as RenderContext['images'][string] | undefined;
      if (typeof key !== 'string' || image?.source.format === 'svg' || !IMAGE_PATH.test(key)) return image;
      const width = image?.source.width ?? 1200;
      const height = image?.source.height ?? 800;
      // Named without its leading slash: Decap takes '/images/x.png' for a public address and hands it back as it is.
      const url = String(getAsset(key.slice(1)) ?? '') || key;
      return { src: url, width, height, file: `content${key}`, bytes: image?.bytes ?? 0, source: { format: 'svg', width, height, alpha: false, hash: '' } };
    },
    has: (target, key) => (typeof key === 'string' && IMAGE_PATH.test(key)) || Reflect.has(target, key),
  });
}

/**
 * The page's markup as the build renders it (renderToStaticMarkup, so each island shows its server
 * HTML, as a visitor sees it before touching it), put into the preview's frame.
 */
function Page({ ctx, url, children }: { ctx: PreviewContext; url: string; children: ReactNode }) {
  // ctx.images here is the preview's (previewImages), made for each render.
  const html = renderToStaticMarkup(
    <SiteContext.Provider value={{ settings: ctx.settings, images: ctx.images, url, year: ctx.year }}>
      <IslandCollectorContext.Provider value={new IslandCollector()}>
        <ImageCollectorContext.Provider value={new ImageCollector(url)}>
          <Layout>{children}</Layout>
        </ImageCollectorContext.Provider>
      </IslandCollectorContext.Provider>
    </SiteContext.Provider>,
  );
  return <div dangerouslySetInnerHTML={{ __html: html }} />;
}

const WIDTHS = { phone: 375, desktop: 1366 } as const;
type Width = keyof typeof WIDTHS | 'pane';

/**
 * Above the page, the width it is drawn at: the pane's own, a phone's (375 px) or a desktop's
 * (1366 px, scaled down to fit the pane), by resizing the preview's frame. The bar also keeps
 * Decap's preview buttons off the site's header and its Menu button.
 */
function WidthBar({ win }: { win?: Window }) {
  const [width, setWidth] = useState<Width>('pane');
  useEffect(() => {
    const frame = win?.frameElement as HTMLElement | null | undefined;
    if (!frame?.parentElement) return;
    const set = (style: Partial<CSSStyleDeclaration>) => Object.assign(frame.style, style);
    if (width === 'pane') return void set({ width: '', height: '', transform: '', transformOrigin: '' });
    const scale = Math.min(1, frame.parentElement.clientWidth / WIDTHS[width]);
    set({ width: `${WIDTHS[width]}px`, height: `${100 / scale}%`, transform: `scale(${scale})`, transformOrigin: 'top left' });
  }, [width, win]);
  return (
    <div role="group" aria-label="Preview width" style={{ display: 'flex', gap: '0.5rem', alignItems: 'center', padding: '0.5rem 1rem', minHeight: '3rem', boxSizing: 'border-box', background: '#eef1f5', borderBottom: '1px solid #c5ccd6', font: '14px system-ui, sans-serif' }}>
      Preview width:
      {(['pane', 'phone', 'desktop'] as const).map((w) => (
        <button key={w} type="button" aria-pressed={width === w} onClick={() => setWidth(w)} style={{ fontWeight: width === w ? 700 : 400 }}>
          {w === 'pane' ? 'Fit the pane' : w === 'phone' ? 'Phone' : 'Desktop'}
        </button>
      ))}
    </div>
  );
}

let parser: MarkdownParser | undefined;
/** remark-parse with the syntax the build parses (GFM, directives), as markdown-parser.ts's remarkParser makes it. */
function browserParser(): MarkdownParser {
  const processor = unified().use(remarkParse).use(remarkGfm).use(remarkDirective).freeze();
  return { name: 'remark-parse', parse: (source) => processor.parse(source) as unknown as Root };
}

/** An article as the build makes it from its file: the body through the build's markdown steps. */
export function previewPost(data: Record<string, unknown>, slug: string, ctx: PreviewContext): Post {
  parser ??= browserParser();
  const body = renderMarkdown(String(data.body ?? ''), `content/blog/${slug}.md`, 0, ctx.settings.assessmentForms, ctx.images, parser);
  const { body: _, ...front } = data;
  // A new article has no date until one is picked: shown as today's meanwhile.
  const date = /^\d{4}-\d{2}-\d{2}$/.test(String(front.date ?? '')) ? front.date : new Date().toISOString().slice(0, 10);
  // A draft shows its banner, as serve shows it.
  const preview = front.draft === true ? 'draft' : undefined;
  return { title: '', excerpt: '', faq: [], ...front, date, slug, html: body.html, toc: body.toc, bodyImages: body.images, ...(preview ? { preview } : {}) } as Post;
}

const NO_PREVIEW = <p style={{ font: '16px system-ui, sans-serif', padding: '1rem' }}>This page has no preview in the site's templates yet: save it and open the page in site serve.</p>;

/** The YAML page `name` drawn by its route's template, with `data` as its content. */
function sitePage(ctx: PreviewContext, name: string, data: Record<string, unknown>): ReactNode {
  const shown = ctx.pages?.[name];
  const Template = shown ? pageTemplates[shown.template] : undefined;
  if (!shown || !Template) return NO_PREVIEW;
  const props = { ...shown.props };
  for (const [prop, field] of shown.fill) props[prop] = field === undefined ? data : data[field];
  return <Page ctx={ctx} url={shown.url}><Template {...props} /></Page>;
}

/** Each kind of entry's preview, by the name the CMS config gives it (a collection's or a file's `preview`). */
export const previewTemplates: Record<string, (props: PreviewProps & { ctx: PreviewContext }) => ReactNode> = {
    blogPost: ({ entry, ctx }) => {
      const slug = slugOf(entry);
      const post = previewPost(plain(entry.get('data')), slug, ctx);
      return <Page ctx={ctx} url={`/blog/${slug}`}><BlogPostPage post={{ ...summary(post), html: post.html, toc: post.toc, faq: post.faq, bodyImages: post.bodyImages }} related={[]} /></Page>;
    },
    caseStudy: ({ entry, ctx }) => {
      const slug = slugOf(entry);
      const study = { order: 100, solution: [], results: [], ...plain(entry.get('data')), slug } as unknown as CaseStudy;
      return <Page ctx={ctx} url={`/case-studies/${slug}`}><CaseStudyPage study={study} imageAlt={caseStudyImageAlt(study)} cta={ctx.studyCta ?? { heading: '', text: '' }} /></Page>;
    },
    service: ({ entry, ctx }) => {
      const slug = slugOf(entry);
      // With the schema's defaults filled in, as the build reads the file (a heading left out is 'Get in Touch').
      const data = plain(entry.get('data'));
      const read = serviceSchema.safeParse(data);
      const service = { ...(read.success ? read.data : data), slug } as unknown as Service;
      const named = (service as { caseStudy?: { slug?: string } }).caseStudy?.slug;
      const teaser = ctx.studies?.find((s) => s.slug === named) ?? ctx.studies?.[0];
      return <Page ctx={ctx} url={`/services/${slug}`}><ServicePage service={service} caseStudy={teaser!} /></Page>;
    },
    // An entry of a folder with no preview of its own, drawn as its routes draw the folder's entries:
    // the entry in the place of the one the route shows, with the schema's defaults filled in.
    folder: ({ entry, ctx }) => {
      const name = String(entry.get('collection'));
      const shown = ctx.folders?.[name];
      const Template = shown ? pageTemplates[shown.template] : undefined;
      if (!shown || !Template) return NO_PREVIEW;
      const slug = slugOf(entry);
      const data = plain(entry.get('data'));
      const read = (collectionSchemas as Record<string, z.ZodType | undefined>)[name]?.safeParse(data);
      const props = { ...shown.props, [shown.prop]: { ...(read?.success ? read.data as Record<string, unknown> : data), slug } };
      return <Page ctx={ctx} url={`${shown.base}${slug}`}><Template {...props} /></Page>;
    },
    // A YAML page, in the template its route draws it with, its content the entry's.
    // With the schema's defaults filled in, as the build reads the file.
    page: ({ entry, ctx }) => {
      const name = String(entry.get('slug'));
      const data = plain(entry.get('data'));
      const read = (pageSchemas as Record<string, z.ZodType | undefined>)[name]?.safeParse(data);
      return sitePage(ctx, name, read?.success ? read.data as Record<string, unknown> : data);
    },
    // A legal page: its body through the build's markdown steps, its sections listed as its route lists them.
    legal: ({ entry, ctx }) => {
      const slug = String(entry.get('slug'));
      parser ??= browserParser();
      const { body = '', title = '', updated = '' } = plain(entry.get('data')) as { body?: string; title?: string; updated?: string };
      const made = renderMarkdown(String(body), `content/pages/${slug}.md`, 0, ctx.settings.assessmentForms, ctx.images, parser);
      return <Page ctx={ctx} url={`/${slug}`}><LegalPage title={title} updated={updated} html={made.html} toc={made.toc.filter((t) => t.depth === 2)} bodyImages={made.images} /></Page>;
    },
    // The site settings: the layout they fill (its header, and the footer's contact details and office
    // hours) around the not-found page, with the settings being edited.
    site: ({ entry, ctx }) => {
      const read = siteSchema.safeParse(plain(entry.get('data')));
      return <Page ctx={read.success ? { ...ctx, settings: read.data } : ctx} url="/404"><NotFoundPage /></Page>;
    },
};

export function registerPreviews(cms: PreviewApi, collections: Array<Record<string, unknown>>, ctx: PreviewContext): void {
  const templates = previewTemplates;
  // Decap names a folder collection's template by the collection and a file's by the file, so the
  // 'blog' and 'services' files of the pages collection share names with the folder collections:
  // each name's template picks by the collection it is drawing.
  const byKey = new Map<string, string>();
  for (const c of collections) {
    if (c.preview) byKey.set(String(c.name), String(c.preview));
    for (const f of (c.files as Array<{ name: string; preview?: string }> | undefined) ?? []) if (f.preview) byKey.set(`${String(c.name)}/${f.name}`, f.preview);
  }
  const names = new Set([...byKey.keys()].map((k) => k.split('/').pop()!));
  const draw = (props: PreviewProps & { collection?: { get(key: string): unknown } }) => {
    const c = String(props.collection?.get('name') ?? '');
    const template = templates[byKey.get(c) ?? byKey.get(`${c}/${String(props.entry.get('slug'))}`) ?? ''];
    if (!template) return NO_PREVIEW;
    return (
      <>
        <WidthBar win={props.window} />
        {template({ ...props, ctx: { ...ctx, images: previewImages(ctx.images, props.getAsset) } })}
      </>
    );
  };
  for (const name of names) cms.registerPreviewTemplate(name, draw as never);
}
