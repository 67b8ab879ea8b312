import type { ComponentProps, JSXElementConstructor } from 'react';
import type { PageMeta } from './meta.ts';
import { pageFile } from '../url-resolution/resolve.ts';

/** A templates module's map: each template by the name routes give it. */
export type TemplateMap = Record<string, JSXElementConstructor<any>>;

/** A route to one of the templates of `T`, with that template's props. */
export type RouteOf<T extends TemplateMap> = {
  [K in keyof T & string]: {
    url: string;
    /** Path of the output file under dist/, with a leading slash. */
    file: string;
    status: 200 | 404;
    template: K;
    props: ComponentProps<T[K]>;
    meta: PageMeta;
  };
}[keyof T & string];

/**
 * The route makers of one kind of page, typed by its templates module (`typeof templates` of it), so
 * a route names only a template of its kind, with that template's props.
 */
export function routeMakers<T extends TemplateMap>() {
  return {
    /** A page at a pretty URL: '/about' is written to about.html (see pageFile). */
    page<K extends keyof T & string>(url: string, template: K, props: ComponentProps<T[K]>, meta: PageMeta): RouteOf<T> {
      return { url, file: pageFile(url), status: 200, template, props, meta } as RouteOf<T>;
    },
    /** A page answered with an error status from its own file, such as 404.html. */
    errorPage<K extends keyof T & string>(url: string, file: string, template: K, props: ComponentProps<T[K]>, meta: PageMeta): RouteOf<T> {
      return { url, file, status: 404, template, props, meta: { ...meta, noindex: true } } as RouteOf<T>;
    },
  };
}
