import { z } from 'zod';

/** YAML files under content/pages/ for the company pages: file name → schema. */
export const companyPages = {} satisfies Record<string, z.ZodType>;

/** Folders content/<name>/*.yaml for the company pages: folder name → schema of one file. */
export const companyCollections = {} satisfies Record<string, z.ZodType>;
