import { z } from 'zod';
import { ASSESSMENT_FORMS, type AssessmentFormName } from './assessment-forms.ts';
import { excerpt, slug, text } from './field-rules.ts';
import { DEFAULT_FORM_ENDPOINT } from '../../forms/names.ts';
import { instantOf } from './publication.ts';

/** Schemas of every content file. Strict objects, so a misspelt field is an error, not a silent default. */

const isoDate = z
  .string({ error: 'expected an ISO date like 2025-09-24' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected an ISO date like 2025-09-24')
  // Only a well-formed date is checked against the calendar, so a bad one gets one message, not two.
  .refine((s) => !/^\d{4}-\d{2}-\d{2}$/.test(s) || (!Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s)), 'is not a real calendar date');
const PUBLICATION_DATE = 'expected an ISO date like 2026-12-01, or a date and time with its offset like 2026-12-01T09:00:00+00:00';
const publicationDate = z.string({ error: PUBLICATION_DATE }).refine((s) => instantOf(s) !== undefined, PUBLICATION_DATE);
const sitePath = z.string().regex(/^\/(?!\/)[^\s]*$/, 'expected a root-relative path such as /contact');
const href = z.union([sitePath, z.url({ protocol: /^https?$/ }), z.string().regex(/^mailto:[^\s@]+@[^\s@]+$/)], { error: 'expected a root-relative path, an http(s) address or a mailto: link' });
/** A site image: a file under content/images, written as /images/name.ext. */
const imagePath = z.string().regex(/^\/images\/[\w.-]+\.(svg|png|jpe?g|webp|avif)$/, 'expected an image path such as /images/hero.svg');

const link = z.strictObject({ label: text, href });
export const image = z.strictObject({ src: imagePath, alt: z.string() });
export const faq = z.strictObject({ question: text, answer: text });
/** A title and its text: an item of a list of points, steps or benefits. */
export const titledText = z.strictObject({ title: text, text: text });

const formUrlError = 'expected an https:// address, or empty to use /dialog-assessment';
const formUrl = z.union([z.literal(''), z.url({ protocol: /^https$/, error: formUrlError })], { error: formUrlError }).default('');
/** Each survey's address (see ASSESSMENT_FORMS), empty for /dialog-assessment. */
const assessmentForms = z.strictObject(Object.fromEntries(ASSESSMENT_FORMS.map((name) => [name, formUrl])) as Record<AssessmentFormName, typeof formUrl>);

export const siteSchema = z.strictObject({
  name: text,
  description: text,
  url: z.url({ protocol: /^https?$/ }),
  email: z.email(),
  location: text,
  officeHours: text,
  logo: imagePath.optional(),
  /** The external DIAlog surveys, opened in a new tab; an empty address sends its links to /dialog-assessment. */
  assessmentForms: assessmentForms.prefault({}),
  reviewsWidgetScript: z.union([z.literal(''), z.url({ protocol: /^https$/ })]).default(''),
  tagManagerId: z.union([z.literal(''), z.string().regex(/^GTM-[A-Z0-9]+$/, 'expected a container id like GTM-ABC1234')]).default(''),
  formEndpoint: z.union([sitePath, z.url({ protocol: /^https$/ })]).default(DEFAULT_FORM_ENDPOINT),
  cookiePolicyVersion: z.number().int().positive().default(1),
  /** Months a form submission is kept in the leads table (its TTL); the privacy policy states it. */
  leadRetentionMonths: z.number().int().min(1).max(120).default(24),
  /** Site search: the index, the /search page, the form on /blog. false builds none of them. */
  search: z.boolean({ error: 'expected true or false' }).default(true),
  /**
   * The content manager at /admin in the built site: the GitHub repository it commits to, its branch,
   * and where its sign-in handler answers (the stack's output CmsAuthUrl). Absent: no /admin is built.
   */
  cms: z.strictObject({
    repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'expected a GitHub repository as owner/name'),
    branch: z.string().regex(/^[\w.\/-]+$/, 'expected a branch name such as main').default('main'),
    authUrl: z.url({ protocol: /^https$/, error: 'expected the https:// address of the sign-in handler' }),
    /**
     * The content manager's own host name (cms.example.co.uk), an alternate domain name of the same
     * distribution: /admin is answered only there, where no page of the site (and so no third-party
     * script) is ever served, so the sign-in token Decap keeps in localStorage is out of their reach.
     * The site's own /admin redirects there. Absent: /admin is served on the site's host.
     */
    host: z.string().regex(/^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'expected a host name such as cms.example.co.uk (lower case, no scheme, no path)').optional(),
  }).optional(),
  author: z.strictObject({ name: text, role: text, bio: text }),
}).superRefine((site, ctx) => {
  // On the site's own host, /admin redirects to cms.host, and cms.host sends every page back: one name for both would loop.
  if (site.cms?.host && URL.canParse(site.url) && new URL(site.url).hostname === site.cms.host) {
    ctx.addIssue({ code: 'custom', path: ['cms', 'host'], message: `must differ from the site's own host (${site.cms.host}): the content manager needs a host name of its own` });
  }
});

export const homeSchema = z.strictObject({
  title: text,
  description: text,
  hero: z.strictObject({ headline: text, text: text, image }),
  testimonials: z.strictObject({
    heading: text,
    items: z.array(z.strictObject({ quote: text, role: text, company: text })).length(4),
  }),
  cta: z.strictObject({ heading: text, text: text, assessment: titledText, talk: titledText }),
});

export const postSchema = z.strictObject({
  title: text,
  excerpt,
  date: isoDate,
  readingTime: z.string().regex(/^\d+ min read$/, "expected a reading time like '7 min read'").optional(),
  categories: z.array(text).optional(),
  image: image.optional(),
  faq: z.array(faq).length(3, 'needs exactly three questions (they feed the FAQPage structured data)'),
  /** Kept out of every production build; `site serve` shows it with a banner. */
  draft: z.boolean().optional(),
  /** Not built before this moment (a bare date: midnight, UK time). */
  publishDate: publicationDate.optional(),
  /** Not built from this moment on. */
  expiryDate: publicationDate.optional(),
  /** false keeps the article out of the site search (it is still published). */
  search: z.boolean({ error: 'expected true or false' }).optional(),
}).superRefine((post, ctx) => {
  const publish = post.publishDate ? instantOf(post.publishDate) : undefined;
  const expiry = post.expiryDate ? instantOf(post.expiryDate) : undefined;
  if (publish && expiry && expiry.getTime() <= publish.getTime()) {
    ctx.addIssue({ code: 'custom', path: ['expiryDate'], message: `is not after publishDate (${post.publishDate}), so the article would never be live` });
  }
});

export const caseStudySchema = z.strictObject({
  client: text,
  title: text,
  subtitle: text,
  metaTitle: text.optional(),
  metaDescription: text.optional(),
  aboutClient: text,
  challenge: text,
  solution: z.array(text).min(1),
  results: z.array(text).min(1),
  feedback: z.strictObject({ quote: text, author: text, role: text }).optional(),
  whyUs: z.array(text).optional(),
  headerImage: imagePath.optional(),
  headerImageAlt: z.string().optional(),
  order: z.number().int().default(100),
  /** false keeps the case study out of the site search. */
  search: z.boolean({ error: 'expected true or false' }).optional(),
});

export const legalSchema = z.strictObject({
  title: text,
  description: text,
  updated: text,
});

export type SiteSettings = z.infer<typeof siteSchema>;
export type HomeContent = z.infer<typeof homeSchema>;
export type PostFrontMatter = z.infer<typeof postSchema>;
export type CaseStudyData = z.infer<typeof caseStudySchema>;
export type LegalFrontMatter = z.infer<typeof legalSchema>;
export type Link = z.infer<typeof link>;
export type Faq = z.infer<typeof faq>;
