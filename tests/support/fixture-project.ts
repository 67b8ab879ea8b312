/** A project root in a temp folder: a copy of content/ to add articles to, and of the code beside it. */
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { seedCache } from './seed-cache.ts';

export interface FixtureProject {
  root: string;
  /** Writes content/blog/<slug>.md with the given front-matter lines (besides the required fields) and body. */
  article(slug: string, opts: { date: string; front?: string[]; body?: string; title?: string }): Promise<void>;
  edit(file: string, change: (text: string) => string): Promise<void>;
  remove(): Promise<void>;
}

const REPO = path.resolve(import.meta.dirname, '../..');

/** `seeded`: with what the unit tests' seed build lends (seed-cache.ts). */
export async function fixtureProject(prefix = 'site-fixture-', opts: { seeded?: boolean } = {}): Promise<FixtureProject> {
  const root = await mkdtemp(path.join(os.tmpdir(), prefix));
  // Copied, not linked: esbuild names a symlinked entry by its real path, and the build then misses its stylesheet.
  for (const part of ['content', 'templates', 'islands', 'src', 'lambda', 'forms']) await cp(path.join(REPO, part), path.join(root, part), { recursive: true });
  await symlink(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  await writeFile(path.join(root, 'package.json'), '{"type":"module"}');
  if (opts.seeded) await seedCache(root);
  return {
    root,
    async article(slug, { date, front = [], body = '', title }) {
      const words = title ?? slug.split('-').map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ');
      const text = [
        '---',
        `title: "${words}"`,
        `excerpt: "A fixture article, ${words.toLowerCase()}, written for the publishing tests so that lists, feeds and pages can be counted."`,
        `date: ${date}`,
        ...front,
        'faq:',
        ...[1, 2, 3].map((n) => `  - question: Fixture question ${n}?\n    answer: Fixture answer ${n}.`),
        '---',
        '',
        body,
        '',
      ].join('\n');
      await writeFile(path.join(root, 'content/blog', `${slug}.md`), text);
    },
    async edit(file, change) {
      const target = path.join(root, 'content', file);
      await writeFile(target, change(await readFile(target, 'utf8')));
    },
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

/** The build clocks the publishing tests use: never today's date. */
export const CLOCK = {
  /** The draft and the scheduled article are out; the expiring one is live until 1 July (UK time). */
  june: new Date('2026-06-01T12:00:00Z'),
  /** The scheduled article's very minute: it is live; the expiring one has gone. */
  december: new Date('2026-12-01T09:00:00Z'),
};

/**
 * Six articles besides the real eight: a draft, one scheduled for 1 December 2026 09:00 UK time, one
 * that expires on 1 July 2026, and three plain ones, all in 'Data Strategy' (five real articles are
 * there too), so that it needs two pages whenever exactly nine of them are live.
 */
export async function addPublishingArticles(p: FixtureProject): Promise<void> {
  const strategy = (...more: string[]) => ['categories:', '  - Data Strategy', ...more.map((c) => `  - ${c}`)];
  await p.article('draft-article', { title: 'Drafting a Data Strategy Your Board Will Read', date: '2026-05-20', front: ['draft: true', ...strategy('Unreleased Topic')] });
  await p.article('scheduled-article', { title: 'Planning the Year Ahead for Your Data', date: '2026-12-01', front: ['publishDate: 2026-12-01T09:00:00+00:00', ...strategy()] });
  await p.article('expiring-article', { title: 'Our Spring Data Clinic Dates', date: '2026-04-01', front: ['expiryDate: 2026-07-01', ...strategy('Seasonal Offers')] });
  const plain = [['2026-01-05', 'Setting Data Priorities for the Quarter'], ['2026-02-05', 'Choosing Measures That Matter'], ['2026-03-05', 'Reviewing a Data Strategy After Six Months']] as const;
  for (const [i, [date, title]] of plain.entries()) await p.article(`strategy-note-${i + 1}`, { title, date, front: strategy() });
}
