import { z } from 'zod';

/** YAML files under content/pages/ for the insights pages: file name → schema. */
export const insightsPages = {} satisfies Record<string, z.ZodType>;

/** Folders content/<name>/*.yaml for the insights pages: folder name → schema of one file. */
export const insightsCollections = {} satisfies Record<string, z.ZodType>;
