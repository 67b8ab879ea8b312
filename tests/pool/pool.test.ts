import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite } from '../../src/build.ts';
import { ContentErrors, formatContentError } from '../../src/content/errors.ts';
import { filesOf, scratchProject } from '../scratch-project.ts';

const now = new Date('2026-01-15T12:00:00Z');
let dir: string;
const build = (outDir: string, poolThreshold: number) => buildSite({ root: dir, outDir: path.join(dir, outDir), now, budgets: false, poolThreshold });

beforeAll(async () => { dir = await scratchProject('site-pool-'); });
afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

describe('the worker pool', () => {
  it('builds, in worker threads, exactly the site the main thread builds', async () => {
    const inline = await build('inline', Infinity);
    expect(inline.redone.pool).toBe(false);
    await rm(path.join(dir, '.site-cache'), { recursive: true, force: true });
    const pooled = await build('pooled', 1);
    expect(pooled.redone).toMatchObject({ pool: true, parsed: inline.redone.parsed, rendered: inline.routes.length });
    expect(await filesOf(path.join(dir, 'pooled'))).toEqual(await filesOf(path.join(dir, 'inline')));
    expect(pooled.summary.html).toEqual(inline.summary.html);
    expect(pooled.summary.perPage).toEqual(inline.summary.perPage);
  }, 120_000);

  it('reports every content error found in the workers at once, with file, line, field and hint', async () => {
    await writeFile(path.join(dir, 'content/blog/what-is-data.md'), '---\ntitle: T\n---\n\nIntro.\n\n<div>raw</div>\n');
    await writeFile(path.join(dir, 'content/blog/your-data-is-fine.md'), '---\ntitle: T\n---\n\nOne.\n\n:::warning\nBox.\n:::\n');
    const error = await build('broken', 1).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(ContentErrors);
    const lines = (error as ContentErrors).errors.map(formatContentError);
    expect(lines).toContain('content/blog/what-is-data.md:7 body: contains raw HTML, which the site does not allow in markdown (hint: use a directive such as :::fix … ::: for boxes)');
    expect(lines).toContainEqual(expect.stringMatching(/^content\/blog\/your-data-is-fine\.md:7 body: uses the unknown directive :::warning \(hint: known directives: /));
    // The front matter of both files is checked too, in the same report.
    expect(lines).toContainEqual(expect.stringMatching(/^content\/blog\/what-is-data\.md:\d* ?excerpt: /));
    expect(lines).toContainEqual(expect.stringMatching(/^content\/blog\/your-data-is-fine\.md:\d* ?excerpt: /));
  }, 120_000);
});
