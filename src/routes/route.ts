import type { ComponentProps } from 'react';
import type { PageMeta } from './meta.ts';
import { pageFile } from '../url-resolution/resolve.ts';
import type { templates } from '../../templates/pages/index.ts';

type Templates = typeof templates;
export type TemplateName = keyof Templates;

export type Route = {
  [K in TemplateName]: {
    url: string;
    /** Path of the output file under dist/, with a leading slash. */
    file: string;
    status: 200 | 404;
    template: K;
    props: ComponentProps<Templates[K]>;
    meta: PageMeta;
  };
}[TemplateName];

/** A page at a pretty URL: '/about' is written to about.html (see pageFile). */
export function page<K extends TemplateName>(url: string, template: K, props: ComponentProps<Templates[K]>, meta: PageMeta): Route {
  return { url, file: pageFile(url), status: 200, template, props, meta } as Route;
}

/** A page answered with an error status from its own file, such as 404.html. */
export function errorPage<K extends TemplateName>(url: string, file: string, template: K, props: ComponentProps<Templates[K]>, meta: PageMeta): Route {
  return { url, file, status: 404, template, props, meta: { ...meta, noindex: true } } as Route;
}
