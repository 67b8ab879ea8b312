import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readLeadRetentionMonths, readLeadRetentionMonthsSync } from '../../src/leads/settings.ts';

const roots: string[] = [];
afterAll(async () => { await Promise.all(roots.map((r) => rm(r, { recursive: true, force: true }))); });

/** A project whose content/site.yaml holds `yaml`. */
async function projectWith(yaml: string): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'site-retention-'));
  roots.push(root);
  await mkdir(path.join(root, 'content'));
  await writeFile(path.join(root, 'content', 'site.yaml'), yaml);
  return root;
}

describe('leadRetentionMonths read from content/site.yaml', () => {
  it('is the months the file states, for serve and for the CDK app alike', async () => {
    const root = await projectWith('name: Example\nleadRetentionMonths: 36\n');
    expect(await readLeadRetentionMonths(root)).toBe(36);
    expect(readLeadRetentionMonthsSync(root)).toBe(36);
  });

  it('is the schema default when the file states none', async () => {
    const root = await projectWith('name: Example\n');
    expect(await readLeadRetentionMonths(root)).toBe(24);
    expect(readLeadRetentionMonthsSync(root)).toBe(24);
  });

  it('stops the CDK app, naming file and field, when the value is refused; serve falls back (its build reports the error)', async () => {
    const root = await projectWith('name: Example\nleadRetentionMonths: 240\n');
    expect(() => readLeadRetentionMonthsSync(root)).toThrow(/^content\/site\.yaml: leadRetentionMonths: .*120/);
    expect(await readLeadRetentionMonths(root)).toBe(24);
  });
});
