import { z } from 'zod';

/** YAML files under content/pages/ for the services pages: file name → schema. */
export const servicesPages = {} satisfies Record<string, z.ZodType>;

/** Folders content/<name>/*.yaml for the services pages: folder name → schema of one file. */
export const servicesCollections = {} satisfies Record<string, z.ZodType>;
