/**
 * Every share card of the real site, drawn and compared with its reference in golden/: an upgrade of
 * takumi, the fonts or the template that moves text fails here. To accept a change on purpose:
 * `UPDATE_CARD_GOLDENS=1 npx vitest run tests/cards/golden.test.ts`, then look at the files before committing.
 */
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cardProps, drawCard, renderCard } from '../../src/cards/draw.tsx';
import { cardEngine } from '../../src/cards/engine.ts';
import { differing, GOLDEN_DIR, MAX_DIFFERING, realCards, reference, UPDATE_ENV } from './golden-cards.ts';

let cards: Awaited<ReturnType<typeof realCards>>;
const update = !!process.env[UPDATE_ENV];

beforeAll(async () => {
  if (update && process.env.CI) throw new Error(`${UPDATE_ENV} is set in CI: the references are only ever drawn again by hand`);
  cards = await realCards();
  if (update) {
    await mkdir(GOLDEN_DIR, { recursive: true });
    for (const { job, name } of cards) await writeFile(path.join(GOLDEN_DIR, name), await reference(await drawCard(job)));
  }
});

describe("the real site's share cards", () => {
  it('has a reference for every card and none left over', async () => {
    expect(cards.length).toBeGreaterThan(20);
    expect((await readdir(GOLDEN_DIR)).filter((f) => f.endsWith('.png')).sort()).toEqual(cards.map((c) => c.name).sort());
  });

  it('draws every card as its reference, pixel for pixel within the tolerance', async () => {
    for (const { job, name } of cards) {
      const golden = await readFile(path.join(GOLDEN_DIR, name)).catch(() => undefined);
      expect(golden, `tests/cards/golden/${name} is missing: run ${UPDATE_ENV}=1 npx vitest run tests/cards/golden.test.ts`).toBeDefined();
      expect(await differing(await drawCard(job), golden!), name).toBeLessThanOrEqual(MAX_DIFFERING);
    }
  });

  it('fails a card whose title has moved: drawn a pixel smaller, it no longer matches', async () => {
    const { job, name } = cards.find((c) => c.job.art)!;
    const props = await cardProps(job);
    const smaller = await renderCard(await cardEngine(), job, { ...props, title: { ...props.title, fontSize: props.title.fontSize - 1 } });
    expect(await differing(smaller, await readFile(path.join(GOLDEN_DIR, name)))).toBeGreaterThan(MAX_DIFFERING * 10);
  });
});
