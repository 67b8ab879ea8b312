import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PARSER_ENV } from '../../src/content/markdown-parser.ts';
import { buildSite } from '../../src/pipeline/build.ts';
import { filesOf, scratchProject } from '../scratch-project.ts';
import { CACHE_DIR } from '../../src/output/layout.ts';

/**
 * A build where satteri's native binding cannot load, forced by SITE_MARKDOWN_PARSER (its own test
 * file: a process chooses its parser, and warns, once).
 */
describe('a build without the native parser', () => {
  const now = new Date('2026-01-15T12:00:00Z');
  let dir: string;
  beforeAll(async () => { dir = await scratchProject('site-fallback-'); });
  afterAll(async () => {
    delete process.env[PARSER_ENV];
    vi.restoreAllMocks();
    await rm(dir, { recursive: true, force: true });
  });

  it('warns once, though its workers parse, and writes the pages satteri writes', async () => {
    const build = (outDir: string) => buildSite({ root: dir, outDir: path.join(dir, outDir), now, budgets: false, poolThreshold: 1 });
    // Workers are given the main thread's environment: they fall back too, silently.
    process.env[PARSER_ENV] = 'remark-parse';
    const warnings = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const fallback = await build('fallback');
    expect(fallback.redone.pool).toBe(true);
    expect(warnings.mock.calls.map((call) => String(call[0])).filter((line) => line.includes('remark-parse'))).toEqual([
      `site: markdown falls back to remark-parse (same output, slower): satteri's native parser did not load (${PARSER_ENV}=remark-parse)`,
    ]);
    // The same site with satteri in the workers (new threads, which choose again).
    delete process.env[PARSER_ENV];
    await rm(path.join(dir, CACHE_DIR), { recursive: true, force: true });
    const native = await build('native');
    expect(native.redone).toMatchObject({ pool: true, parsed: fallback.redone.parsed });
    expect(await filesOf(path.join(dir, 'fallback'))).toEqual(await filesOf(path.join(dir, 'native')));
  });
});
