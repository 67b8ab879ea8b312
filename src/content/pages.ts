import type { z } from 'zod';
import { homeSchema } from './schemas.ts';

/** The YAML page files under content/pages/, each with its schema. Adding a page's copy starts here. */
export const pageSchemas = {
  home: homeSchema,
} satisfies Record<string, z.ZodType>;

export type PageContent = { [K in keyof typeof pageSchemas]: z.infer<(typeof pageSchemas)[K]> };
