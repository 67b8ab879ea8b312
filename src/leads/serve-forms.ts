// What `site serve` gives its local form backend, and what it prints about it: the leads table on
// disk under .site/data/leads (so leads survive restarts), SES_ENDPOINT when set (to try an outage
// against a closed port, say), and the retention period from content/site.yaml.
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LocalFormBackend } from '../../lambda/local-backend.ts';
import { readLeadRetentionMonths } from './settings.ts';
import { dataDirOf } from '../output/layout.ts';

/** The local leads table's data folder under a project root. */
export const localLeadsDir = (root: string) => path.join(dataDirOf(root), 'leads');

/**
 * Where a running `site serve` writes its DynamoDB endpoint. Its store holds the data folder (LevelDB
 * allows one process), so `site leads` goes through that endpoint instead of opening the folder.
 */
export const servedEndpointFile = (root: string) => path.join(dataDirOf(root), 'leads.endpoint');

/** Writes the endpoint file; answers a function that removes it (when serve stops). */
export async function announceServedStore(root: string, forms: LocalFormBackend): Promise<() => Promise<void>> {
  const file = servedEndpointFile(root);
  await writeFile(file, `${forms.store.endpoint}\n`);
  return () => rm(file, { force: true });
}

export async function localFormsOptions(root: string, env: NodeJS.ProcessEnv = process.env) {
  const sesEndpoint = env.SES_ENDPOINT?.trim();
  return {
    dataDir: localLeadsDir(root),
    retentionMonths: await readLeadRetentionMonths(root),
    ...(sesEndpoint ? { sesEndpoint } : {}),
  };
}

export function localFormsLines(forms: LocalFormBackend): string[] {
  const where = forms.store.dataDir ? `${path.relative(process.cwd(), forms.store.dataDir) || '.'}/` : 'memory';
  return [
    forms.mailViewerUrl
      ? `forms post to the local handler; every e-mail they send is shown at ${forms.mailViewerUrl}`
      : `forms post to the local handler; e-mail goes to SES_ENDPOINT ${forms.sesEndpoint}`,
    `leads are stored first in DynamoDB (dynalite) at ${forms.store.endpoint}, table ${forms.store.table}, data in ${where}; see them with \`site leads list\``,
  ];
}
