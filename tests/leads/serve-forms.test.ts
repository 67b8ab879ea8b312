// `site serve`'s form backend: leads kept on disk under .site/data/leads survive a restart, and
// SES_ENDPOINT sends mail to another server instead of starting a local one.
import { createServer } from 'node:http';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startLocalFormBackend, type LocalFormBackend } from '../../lambda/local-backend.ts';
import { startLocalStore } from '../../lambda/leads/local-store.ts';
import { leadStore } from '../../lambda/leads/store.ts';
import { silentLogger } from '../../lambda/log.ts';
import { startLocalSes, type LocalSes } from '../../lambda/local-ses.ts';
import { localFormsLines, localFormsOptions } from '../../src/leads/serve-forms.ts';
import { clearStore, storedEmails, validContact } from '../lambda/support.ts';
import { dataDirOf } from '../../src/output/layout.ts';

let root: string;
let ses: LocalSes;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'site-serve-leads-'));
  ses = await startLocalSes();
});
afterAll(async () => { await ses.close(); await rm(root, { recursive: true, force: true }); });

const ORIGIN = 'http://127.0.0.1:4321';

/** Posts through the backend's node listener, as `site serve` mounts it. */
async function post(backend: LocalFormBackend, body: unknown): Promise<number> {
  const server = createServer(backend.listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/send-contact-form`, { method: 'POST', headers: { 'content-type': 'application/json', origin: ORIGIN }, body: JSON.stringify(body) });
    return response.status;
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

it('keeps leads on disk across restarts, sends to SES_ENDPOINT, and says where the store is', async () => {
  await mkdir(path.join(root, 'content'), { recursive: true });
  await writeFile(path.join(root, 'content', 'site.yaml'), 'leadRetentionMonths: 6\n');
  await clearStore(ses);
  const options = await localFormsOptions(root, { SES_ENDPOINT: ses.endpoint });
  expect(options).toEqual({ dataDir: path.join(dataDirOf(root), 'leads'), retentionMonths: 6, sesEndpoint: ses.endpoint });

  const first = await startLocalFormBackend({ allowedOrigins: [ORIGIN], log: silentLogger, ...options });
  expect(first.mailViewerUrl).toBeUndefined();
  expect(localFormsLines(first).join('\n')).toMatch(/e-mail goes to SES_ENDPOINT http:\/\/127\.0\.0\.1:\d+\nleads are stored first in DynamoDB \(dynalite\) at http:\/\/127\.0\.0\.1:\d+, table site-leads, data in .*\.site\/data\/leads\//);
  expect(await post(first, validContact({ submissionId: 'restart-0000-4000-8000-000000000001' }))).toBe(200);
  await first.close();

  const second = await startLocalFormBackend({ allowedOrigins: [ORIGIN], log: silentLogger, ...options });
  // The same lead posted again after the restart is recognised: stored once, mailed once.
  expect(await post(second, validContact({ submissionId: 'restart-0000-4000-8000-000000000001' }))).toBe(200);
  await second.close();

  const local = await startLocalStore({ dataDir: options.dataDir });
  const client = local.client();
  const leads = await leadStore(client, local.table).all();
  client.destroy();
  await local.close();
  expect(leads.map((l) => [l.submissionId, l.mail.state])).toEqual([[expect.stringMatching(/^client-restart-0000-4000-8000-000000000001-/), 'sent']]);
  // 6 months of retention from site.yaml, as the TTL.
  const months = (leads[0]!.expiresAt * 1000 - Date.parse(leads[0]!.receivedAt)) / (30.44 * 24 * 3600 * 1000);
  expect(Math.round(months)).toBe(6);
  expect(await storedEmails(ses)).toHaveLength(1);
});
