// leadRetentionMonths from content/site.yaml, read on its own (without loading the whole site) for
// `site serve`'s local handler; validated by the same schema as the build.
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_RETENTION_MONTHS } from '../../lambda/config.ts';
import { siteSchema } from '../content/schemas.ts';
import { parseYaml } from '../content/yaml.ts';

export async function readLeadRetentionMonths(root: string): Promise<number> {
  const file = path.join(root, 'content', 'site.yaml');
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return DEFAULT_RETENTION_MONTHS;
  const parsed = parseYaml(text, 'content/site.yaml');
  const checked = siteSchema.shape.leadRetentionMonths.safeParse((parsed.data as Record<string, unknown> | undefined)?.leadRetentionMonths);
  return checked.success ? checked.data : DEFAULT_RETENTION_MONTHS;
}

/** The same, synchronously, for the CDK app (which sets the deployed handler's retention from it). */
export function readLeadRetentionMonthsSync(root: string): number {
  let text: string;
  try { text = readFileSync(path.join(root, 'content', 'site.yaml'), 'utf8'); } catch { return DEFAULT_RETENTION_MONTHS; }
  const parsed = parseYaml(text, 'content/site.yaml');
  const checked = siteSchema.shape.leadRetentionMonths.safeParse((parsed.data as Record<string, unknown> | undefined)?.leadRetentionMonths);
  return checked.success ? checked.data : DEFAULT_RETENTION_MONTHS;
}
