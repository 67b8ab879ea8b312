import type { AssessmentFormName, SiteSettings } from './schemas.ts';

/** What a screen reader hears after the name of a link that opens in a new tab. */
export const NEW_TAB_HINT = ' (opens in a new tab)';

/** The 'opens in a new tab' icon's outline (24×24, stroked), drawn by templates and markdown alike. */
export const EXTERNAL_ICON_PATHS = ['M14 4h6v6M20 4l-9 9', 'M18 14v5a1 1 0 01-1 1H5a1 1 0 01-1-1V7a1 1 0 011-1h5'] as const;

/** The scheme markdown authors write to link a survey named in content/site.yaml: `[label](assessment-form:readiness)`. */
export const ASSESSMENT_FORM_SCHEME = 'assessment-form:';

/** An assessment link goes to the named external survey when its address is set, else to /dialog-assessment. */
export function assessmentHref(settings: Pick<SiteSettings, 'assessmentForms'>, form: AssessmentFormName = 'organisation'): { href: string; external: boolean } {
  const href = settings.assessmentForms[form];
  return href ? { href, external: true } : { href: '/dialog-assessment', external: false };
}
