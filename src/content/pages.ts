import type { z } from 'zod';
import { homeSchema } from './schemas.ts';
import { servicesCollections, servicesPages } from './services-schema.ts';
import { companyCollections, companyPages } from './company-schema.ts';
import { insightsPages } from './insights-schema.ts';

/** The YAML page files under content/pages/, each with its schema (adding a page: docs/architecture.md#adding-a-page). */
export const pageSchemas = {
  home: homeSchema,
  ...servicesPages,
  ...companyPages,
  ...insightsPages,
} satisfies Record<string, z.ZodType>;

export type PageContent = { [K in keyof typeof pageSchemas]: z.infer<(typeof pageSchemas)[K]> };

/** The legal pages: markdown files under content/pages/, each its own page at /<slug>. */
export const legalPages = ['privacy-policy', 'terms-of-service'] as const;

/**
 * Folders of YAML files, one entry per file, the file name being its slug: content/<name>/<slug>.yaml.
 * Each entry may carry `order` (a number) to sort by; otherwise slugs sort alphabetically.
 */
export const collectionSchemas = {
  ...companyCollections,
  ...servicesCollections,
} satisfies Record<string, z.ZodType>;

export type CollectionContent = { [K in keyof typeof collectionSchemas]: Array<z.infer<(typeof collectionSchemas)[K]> & { slug: string }> };
