/**
 * The hosted DIAlog survey forms, by the name templates and markdown ask for: the general survey,
 * one per audience on the DIAlog page (leaders and their teams answer apart, to compare), and the
 * six-dimension readiness assessment of the data-literacy page. Here rather than beside the schema,
 * so that the markdown code (which the workers load) needs no zod.
 */
export const ASSESSMENT_FORMS = ['organisation', 'leaders', 'teams', 'readiness'] as const;
export type AssessmentFormName = (typeof ASSESSMENT_FORMS)[number];

/** Each survey's address, as content/site.yaml's `assessmentForms` gives it: empty for /dialog-assessment. */
export type AssessmentFormAddresses = Readonly<Record<AssessmentFormName, string>>;

/** What a screen reader hears after the name of a link that opens in a new tab. */
export const NEW_TAB_HINT = ' (opens in a new tab)';

/** The 'opens in a new tab' icon's outline (24×24, stroked), drawn by templates and markdown alike. */
export const EXTERNAL_ICON_PATHS = ['M14 4h6v6M20 4l-9 9', 'M18 14v5a1 1 0 01-1 1H5a1 1 0 01-1-1V7a1 1 0 011-1h5'] as const;

/** The scheme markdown authors write to link a survey named in content/site.yaml: `[label](assessment-form:readiness)`. */
export const ASSESSMENT_FORM_SCHEME = 'assessment-form:';

/** An assessment link goes to the named external survey when its address is set, else to /dialog-assessment. */
export function assessmentHref(settings: { assessmentForms: AssessmentFormAddresses }, form: AssessmentFormName = 'organisation'): { href: string; external: boolean } {
  const href = settings.assessmentForms[form];
  return href ? { href, external: true } : { href: '/dialog-assessment', external: false };
}
