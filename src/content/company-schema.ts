import { z } from 'zod';
import { titledText, image, caseStudySchema } from './schemas.ts';
import { ASSESSMENT_FORMS } from './assessment-forms.ts';
import { text } from './field-rules.ts';

const meta = { title: text, description: text };
const hero = z.strictObject({ eyebrow: text, heading: text, text });
const block = z.strictObject({ heading: text, text });
const lead = z.strictObject({ heading: text, lead: text });

/**
 * A fixed list of cards whose titles and order the site keeps whatever the content says: a
 * misnamed, missing or extra item is a content error rather than a page that quietly drifts.
 */
function named<S extends z.ZodRawShape>(titles: readonly string[], shape: S) {
  return z
    .array(z.strictObject({ title: text, ...shape }))
    .length(titles.length)
    .superRefine((items, ctx) => {
      titles.forEach((title, i) => {
        const item = items[i] as { title: string } | undefined;
        if (item && item.title !== title) ctx.addIssue({ code: 'custom', path: [i, 'title'], message: `expected the title '${title}' (these items' titles are fixed, in this order), got "${item.title}"` });
      });
    });
}

export const VALUES = ['Owning the Outcome', 'Staying Open', 'Keeping It Clear', 'Making Things Better'] as const;
export const STAGES = ['Unearth', 'Reveal', 'Build', 'Achieve'] as const;
export const DIALOG_STEPS = ['Assessment', 'Analysis', 'Action Plan'] as const;
export const DIALOG_ASPECTS = ['Advocate', 'Translator', 'Monitor', 'Enabler', 'Interpreter', 'Strategist'] as const;

/** A heading that carries the word its section is named by, so a reader can find it ('Our Vision'). */
const headingNaming = (word: string) => text.regex(new RegExp(`\\b${word}\\b`, 'i'), `must contain the word '${word}', as the page names the section (e.g. 'Our ${word[0]!.toUpperCase()}${word.slice(1)}')`);

export const aboutSchema = z.strictObject({
  ...meta,
  hero,
  purpose: z.strictObject({ heading: headingNaming('purpose'), paragraphs: z.array(text).min(1), image }),
  vision: z.strictObject({ heading: headingNaming('vision'), text }),
  mission: z.strictObject({ heading: headingNaming('mission'), text }),
  values: z.strictObject({ heading: text, lead: text, items: named(VALUES, { text }) }),
  methodology: z.strictObject({
    heading: text,
    lead: text,
    stages: named(STAGES, { summary: text, happens: text, outcome: text }),
  }),
  cta: block,
});

export const dialogSchema = z.strictObject({
  ...meta,
  hero: z.strictObject({ eyebrow: text, heading: text, text, image }),
  challenges: z.strictObject({ heading: text, lead: text, items: z.array(titledText).min(3).max(6) }),
  about: z.strictObject({ heading: text, paragraphs: z.array(text).min(1), points: z.array(text).min(1) }),
  steps: z.strictObject({ heading: text, lead: text, items: named(DIALOG_STEPS, { text }) }),
  aspects: z.strictObject({ heading: text, lead: text, items: named(DIALOG_ASPECTS, { question: text, text }) }),
  businessCase: z.strictObject({
    heading: text,
    lead: text,
    figures: z.array(z.strictObject({ figure: text, text })).min(2).max(6),
    note: text,
  }),
  testimonials: z.strictObject({
    heading: text,
    items: z.array(z.strictObject({ quote: text, role: text })).length(7, 'needs exactly seven quotes'),
  }),
  cta: z.strictObject({
    heading: text,
    text,
    /** The surveys offered, one per audience: `form` names an address in content/site.yaml's assessmentForms. */
    surveys: z.array(z.strictObject({
      form: z.enum(ASSESSMENT_FORMS, { error: `expected one of the assessmentForms in content/site.yaml: ${ASSESSMENT_FORMS.join(', ')}` }),
      title: text,
      text,
      label: text,
    })).min(1).max(3),
  }),
});

export const testimonialsSchema = z.strictObject({
  ...meta,
  title: z.literal('Client Success Stories', { error: "expected the title 'Client Success Stories'" }),
  hero: z.strictObject({ eyebrow: text, text }),
  testimonials: z.strictObject({
    heading: text,
    lead: text,
    items: z.array(z.strictObject({ quote: text, role: text, organisation: text })).min(3).max(4),
  }),
  caseStudies: lead,
  cta: block,
});

export const caseStudiesPageSchema = z.strictObject({
  ...meta,
  hero,
  list: lead,
  cta: block,
  /** The closing call to action of every case-study page. */
  studyCta: block,
});

export type AboutContent = z.infer<typeof aboutSchema>;
export type DialogContent = z.infer<typeof dialogSchema>;
export type TestimonialsContent = z.infer<typeof testimonialsSchema>;
export type CaseStudiesPageContent = z.infer<typeof caseStudiesPageSchema>;

/** YAML files under content/pages/ for the company pages: file name → schema. */
export const companyPages = {
  about: aboutSchema,
  dialog: dialogSchema,
  testimonials: testimonialsSchema,
  'case-studies': caseStudiesPageSchema,
} satisfies Record<string, z.ZodType>;


/** Folders content/<name>/*.yaml for the company pages: folder name → schema of one file. */
export const companyCollections = {
  'case-studies': caseStudySchema,
} satisfies Record<string, z.ZodType>;
