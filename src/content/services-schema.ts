import { z } from 'zod';
import { titledText, faq } from './schemas.ts';
import { metaDescription, slug, text } from './field-rules.ts';

/** Schemas of the services copy: the /services overview and one YAML file per service page. */


/** The four stages, in the order the method runs them. */
export const STAGES = ['Unearth', 'Reveal', 'Build', 'Achieve'] as const;

const stage = z.strictObject({ name: z.enum(STAGES), text });

const stages = z.array(stage).length(4, 'needs the four stages: Unearth, Reveal, Build, Achieve')
  .refine((list) => list.every((s, i) => s.name === STAGES[i]), 'must list the stages in order: Unearth, Reveal, Build, Achieve');

/** The six readiness dimensions the assessment looks at, by the names the site gives them. */
export const DIMENSIONS = ['Data infrastructure', 'Governance', 'Skills', 'Culture', 'Leadership', 'Value realisation'] as const;

export const serviceSchema = z.strictObject({
  /** Position on /services and in any list of services. */
  order: z.number().int(),
  /** Short name for cards and the structured data, e.g. 'Data Governance'. */
  name: text,
  /** One line for its teaser on the overview. */
  summary: text,
  metaTitle: text,
  metaDescription,
  hero: z.strictObject({
    eyebrow: text,
    heading: text,
    text,
    /** The hero's button: 'Book a Free Consultation' (to /contact) or 'Test Your Data Maturity'. */
    action: z.enum(['consultation', 'assessment']).default('consultation'),
  }),
  challenge: z.strictObject({ heading: text, text, problems: z.array(text).min(3).max(8) }),
  approach: z.strictObject({ heading: text, lead: text, stages }),
  /** Typical durations, on the pages that give them. */
  timelines: z.strictObject({
    heading: text,
    items: z.array(z.strictObject({ label: text, duration: text, text })).min(1),
  }).optional(),
  benefits: z.strictObject({ heading: text, lead: text.optional(), items: z.array(titledText).min(3).max(6) }),
  tools: z.strictObject({
    heading: text,
    lead: text,
    groups: z.array(z.strictObject({ name: text, items: z.array(text).min(2) })).min(2).max(4),
  }),
  caseStudy: z.strictObject({
    heading: text,
    /** A file in content/case-studies; the routes check it exists. */
    slug,
    text,
  }),
  /** The literacy page's call to take the six-dimension assessment. */
  assessment: z.strictObject({
    heading: text,
    text,
    dimensions: z.array(titledText).length(6, 'needs the six dimensions')
      .refine((list) => list.every((d, i) => d.title === DIMENSIONS[i]), `must list the six dimensions in order: ${DIMENSIONS.join(', ')}`),
    note: text,
  }).optional(),
  faq: z.strictObject({ heading: text, items: z.array(faq).length(5, 'needs exactly five questions') }),
  /** The embedded form's heading: one of the two wordings the service pages use. */
  contactHeading: z.enum(['Get in Touch', 'Or Get in Touch Directly']).default('Get in Touch'),
  contactLead: text.optional(),
  /** false keeps the service page out of the site search. */
  search: z.boolean({ error: 'expected true or false' }).optional(),
});

export const servicesOverviewSchema = z.strictObject({
  title: text,
  description: metaDescription,
  hero: z.strictObject({ eyebrow: text, heading: text, text }),
  list: z.strictObject({ heading: text, lead: text }),
  method: z.strictObject({ heading: text, lead: text, stages }),
  closing: z.strictObject({ heading: text, text }),
});

export type ServiceContent = z.infer<typeof serviceSchema>;
export type ServicesOverviewContent = z.infer<typeof servicesOverviewSchema>;

/** YAML files under content/pages/ for the services pages: file name → schema. */
export const servicesPages = {
  services: servicesOverviewSchema,
} satisfies Record<string, z.ZodType>;

/** Folders content/<name>/*.yaml for the services pages: folder name → schema of one file. */
export const servicesCollections = {
  services: serviceSchema,
} satisfies Record<string, z.ZodType>;
