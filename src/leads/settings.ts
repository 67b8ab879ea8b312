// leadRetentionMonths from content/site.yaml, read on its own (without loading the whole site) for
// `site serve`'s local handler and the CDK app; validated by the same schema as the build.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_RETENTION_MONTHS } from '../../lambda/config.ts';
import { siteSchema } from '../content/schemas.ts';
import { parseYaml } from '../content/yaml.ts';

const SITE_FILE = 'content/site.yaml';

/** The months site.yaml states (the schema's default when it states none), or why its value is refused. */
function retentionIn(text: string): { months: number } | { problem: string } {
  const parsed = parseYaml(text, SITE_FILE);
  const checked = siteSchema.shape.leadRetentionMonths.safeParse((parsed.data as Record<string, unknown> | undefined)?.leadRetentionMonths);
  return checked.success ? { months: checked.data } : { problem: checked.error.issues.map((i) => i.message).join('; ') };
}

/** For `site serve`: a value the build refuses falls back to the default here, since the build reports it with file and line. */
export async function readLeadRetentionMonths(root: string): Promise<number> {
  const text = await readFile(path.join(root, SITE_FILE), 'utf8').catch(() => undefined);
  const found = text === undefined ? undefined : retentionIn(text);
  return found && 'months' in found ? found.months : DEFAULT_RETENTION_MONTHS;
}

/**
 * For the CDK app, which sets the deployed leads' expiry from it: a value site.yaml states but the
 * schema refuses stops synth, rather than deploy an expiry the privacy policy does not state.
 */
export function readLeadRetentionMonthsSync(root: string): number {
  let text: string;
  try { text = readFileSync(path.join(root, SITE_FILE), 'utf8'); } catch { return DEFAULT_RETENTION_MONTHS; }
  const found = retentionIn(text);
  if ('problem' in found) throw new Error(`${SITE_FILE}: leadRetentionMonths: ${found.problem}`);
  return found.months;
}
