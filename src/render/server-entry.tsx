/** Bundled fresh for every build, so `site serve` renders with the templates as they are now. */
import { templatesByKind } from 'site:page-templates';
import { templatesOf } from '../routes/template-map.ts';
import { Layout } from '../../templates/layout/Layout.tsx';
import { renderPage } from './page.tsx';
import { documentOf, outputPages, type DocumentShell, type PageResult, type PagesTask, type UnwrittenPage } from './page-output.ts';
import { withBody } from './article-body.ts';
import type { Route } from '../routes/table.ts';
import type { RenderContext } from '../page-api/site-context.tsx';
import type { ComponentType } from 'react';

/** Every kind's templates (the registry's modules, bundled with this entry: src/bundle/page-templates.ts). */
const templates = templatesOf<ComponentType<never>>(templatesByKind);

export function render(route: Route, ctx: RenderContext) {
  return renderPage(route, ctx, templates, Layout);
}

/** A batch of pages rendered (or taken from the cache), made into documents, written and measured: see page-output.ts. */
export function makePages(task: PagesTask): Array<PageResult | UnwrittenPage> {
  return outputPages(task, render);
}

/**
 * One page's whole document, made in memory (`site serve` answers from it): its article's body put
 * back from the cache's bytes where the route holds its marker; undefined if those are missing.
 */
export function pageDocument(route: Route, ctx: Omit<RenderContext, 'url'>, shell: DocumentShell, body?: Uint8Array): string | undefined {
  const whole = withBody(route, body);
  return whole && documentOf(render(whole, { ...ctx, url: route.url }), shell).html;
}
