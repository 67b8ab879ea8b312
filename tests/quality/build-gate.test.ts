// The budgets gate of `npm run check` over budget: the build fails and leaves dist/ alone, and the
// other gates still get the pages it built, with their routing table beside them.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildGate } from '../../quality/build-gate.ts';
import { readRoutingTable } from '../../quality/gate-urls.ts';
import { loadBudgets } from '../../src/measure/budgets.ts';

describe('the budgets gate', () => {
  it('over budget, reports each page and hands the other gates the pages the failed build left, routing table and all', async () => {
    const work = await mkdtemp(path.join(tmpdir(), 'site-gate-'));
    try {
      const budgets = (await loadBudgets(process.cwd()))!;
      const outDir = path.join(work, 'dist');
      const { report, dir } = await buildGate({ root: process.cwd(), outDir, budgets: { ...budgets, page: { ...budgets.page, htmlKb: 1 } } });
      expect(report.failures.length).toBeGreaterThan(0);
      expect(report.failures[0]).toMatch(/HTML .* > 1 KB$/);
      expect(existsSync(outDir)).toBe(false);
      expect(dir).not.toBe(outDir);
      expect(await readFile(path.join(dir, 'index.html'), 'utf8')).toContain('<html');
      expect((await readRoutingTable(dir)).pageUrls).toContain('/about');
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});
