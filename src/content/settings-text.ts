// Figures from content/site.yaml stated in page text, so the words and the setting that acts on
// them cannot drift apart: the privacy policy writes {{leadRetention}} where it states how long
// form submissions are kept, and the leads table's TTL is set from the same leadRetentionMonths.
import type { ContentError } from './errors.ts';
import type { SiteSettings } from './schemas.ts';

export const LEAD_RETENTION_PLACEHOLDER = '{{leadRetention}}';

/** "24 months", "1 month". */
export function retentionPeriod(months: number): string {
  return `${months} month${months === 1 ? '' : 's'}`;
}

/**
 * The page's HTML with each placeholder replaced by its figure. `required` names placeholders the
 * page must contain (the privacy policy must state the retention period); a missing one is an error.
 */
export function fillSettings(html: string, settings: Pick<SiteSettings, 'leadRetentionMonths'>, file: string, required: readonly string[], errors: ContentError[]): string {
  for (const placeholder of required) {
    if (!html.includes(placeholder)) {
      errors.push({ file, path: 'body', message: `must state the leads retention period with ${placeholder}`, hint: 'it is filled in from leadRetentionMonths in content/site.yaml' });
    }
  }
  return html.replaceAll(LEAD_RETENTION_PLACEHOLDER, retentionPeriod(settings.leadRetentionMonths));
}
