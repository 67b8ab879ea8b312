// `npm test` serves the quality gates' build to the browser tests while the gates go on: the build
// must stay, and Lighthouse must wait, until the browser tests are done with it.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { runCheck } from '../../quality/run-check.ts';

describe('the quality gates lending their build', () => {
  it('hand out the built folder, then wait with it in place until it is given back, and only then remove it', async () => {
    let dir: string | undefined;
    let asked = 0;
    let giveBack!: () => void;
    const given = new Promise<void>((resolve) => { giveBack = resolve; });
    // Counts the check's waits on it: the check is known to be waiting, not merely slow.
    const back: PromiseLike<void> = { then: (ok, fail) => { asked++; return given.then(ok, fail); } };
    const lines: string[] = [];
    let ended = false;
    const check = runCheck({ root: process.cwd(), gates: new Set(['budgets']), out: (line) => lines.push(line), lend: { built: (d) => { dir = d; }, back } })
      .finally(() => { ended = true; });

    await vi.waitFor(() => expect(asked).toBe(1), { timeout: 120_000, interval: 100 });
    expect(dir).toBeDefined();
    expect(await readFile(path.join(dir!, 'index.html'), 'utf8')).toContain('<html');
    expect(ended).toBe(false);
    expect(lines.some((l) => l.startsWith('budgets:'))).toBe(true);

    giveBack();
    const { ok } = await check;
    expect(asked).toBe(2); // before Lighthouse, and before the folder goes
    expect(ok).toBe(true);
    expect(existsSync(dir!)).toBe(false);
  }, 150_000);
});
