import { z } from 'zod';
import { titledText, image } from './schemas.ts';
import { metaDescription, text } from './field-rules.ts';

const description = metaDescription;
const meta = { title: text, description };
const hero = z.strictObject({ eyebrow: text, heading: text, text });

/** Copy written once for every category's pages; {category} stands for the category's name. */
const perCategory = text.refine((s) => s.includes('{category}'), "must contain {category}, which each category's page replaces with its name");

export const blogPageSchema = z.strictObject({
  ...meta,
  hero,
  /** The label of the link to the Atom feed under the intro. */
  feedLink: text,
  /** The pages at /blog/category/<slug>: their title, description and intro. */
  category: z.strictObject({ title: perCategory, description: perCategory, text: perCategory }),
  /** The site search (when content/site.yaml has it on): the form's label on /blog, and the /search page. */
  search: z.strictObject({
    ...meta,
    hero,
    /** The search box's visible label, on /blog and /search. */
    label: text,
    /** What a visitor without JavaScript reads instead of results. */
    noScript: text,
    /** The heading of the list of category pages beneath. */
    browse: text,
  }),
});

export const contactPageSchema = z.strictObject({
  ...meta,
  hero,
  form: z.strictObject({ heading: text, lead: text }),
  details: z.strictObject({ heading: text, text }),
});

export const assessmentPageSchema = z.strictObject({
  ...meta,
  eyebrow: text,
  /** States that assessment places are limited. */
  intro: text,
  image,
  questionsLead: text,
  contactLead: text,
});

export const thankYouPageSchema = z.strictObject({
  ...meta,
  hero,
  next: z.strictObject({ heading: text, steps: z.array(titledText).min(2).max(4) }),
  links: z.strictObject({ heading: text, text }),
});

/** YAML files under content/pages/ for the insights pages: file name → schema. */
export const insightsPages = {
  blog: blogPageSchema,
  contact: contactPageSchema,
  'dialog-assessment': assessmentPageSchema,
  'thank-you': thankYouPageSchema,
} satisfies Record<string, z.ZodType>;

/** Folders content/<name>/*.yaml for the insights pages: folder name → schema of one file. */

export type BlogPageContent = z.infer<typeof blogPageSchema>;
export type ContactPageContent = z.infer<typeof contactPageSchema>;
export type AssessmentPageContent = z.infer<typeof assessmentPageSchema>;
export type ThankYouPageContent = z.infer<typeof thankYouPageSchema>;
