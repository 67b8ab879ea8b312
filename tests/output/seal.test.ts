import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readSeal, resealed, sealProblem, SEAL_FILE, writeSeal, type Seal, type SealedFile } from '../../src/output/seal.ts';

/**
 * The completion manifest: what a full build writes, what a quick rebuild splices into the last one
 * (a few entries replaced in its bytes), and what `site deploy` checks it against.
 */
let live: string;
let next: string;
beforeEach(async () => {
  live = await mkdtemp(path.join(tmpdir(), 'seal-live-'));
  next = await mkdtemp(path.join(tmpdir(), 'seal-next-'));
});
afterEach(async () => {
  await rm(live, { recursive: true, force: true });
  await rm(next, { recursive: true, force: true });
});

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const file = (key: string, text: string): SealedFile => ({ key, size: Buffer.byteLength(text), sha256: sha(text) });
const read = async (dir: string) => JSON.parse(await readFile(path.join(dir, SEAL_FILE), 'utf8')) as Seal;

// Keys a splice could trip on: a bracket and a quote inside a name, a non-ASCII one, one key the start of another.
const files = [
  file('index.html', 'home'),
  file('blog/a].html', 'bracket'),
  file('blog/"quoted".html', 'quote'),
  file('blog/café.html', 'accent'),
  file('blog/x.html', 'short'),
  file('blog/x.html.gz', 'longer key, same start'),
  file('feed.xml', 'feed'),
];

describe('the completion manifest', () => {
  it('patched by a quick rebuild is the one a full build of the same files writes', async () => {
    await writeSeal(live, files, { preview: false });
    const changed = [file('blog/x.html', 'a much longer page than before'), file('blog/a].html', 'b'), file('blog/café.html', 'thé')];
    expect(await resealed(await readSeal(live), next, changed, { preview: false })).toBe(true);
    const whole = await mkdtemp(path.join(tmpdir(), 'seal-whole-'));
    try {
      const byKey = new Map([...files, ...changed].map((f) => [f.key, f]));
      await writeSeal(whole, [...byKey.values()], { preview: false });
      const [patched, written] = [await read(next), await read(whole)];
      expect({ list: patched.list, digest: patched.digest, files: patched.files, bytes: patched.bytes })
        .toEqual({ list: written.list, digest: written.digest, files: written.files, bytes: written.bytes });
      expect(patched.bytes).toBe([...byKey.values()].reduce((n, f) => n + f.size, 0));
      expect(await sealProblem(next, [...byKey.values()])).toBeUndefined();
      // The live tree's manifest is left as it was.
      expect((await read(live)).list).toContainEqual(['blog/x.html', 5, sha('short')]);
    } finally {
      await rm(whole, { recursive: true, force: true });
    }
  });

  it('is not patched, and nothing is written, when the last one is damaged or lacks a changed file', async () => {
    await writeSeal(live, files, { preview: false });
    expect(await resealed(await readSeal(live), next, [file('blog/new.html', 'new')], { preview: false })).toBe(false);
    const text = await readFile(path.join(live, SEAL_FILE), 'utf8');
    await writeFile(path.join(live, SEAL_FILE), text.replace(sha('feed'), sha('tampered')));
    expect(await resealed(await readSeal(live), next, [file('index.html', 'home again')], { preview: false })).toBe(false);
    await rm(path.join(live, SEAL_FILE));
    expect(await resealed(await readSeal(live), next, [file('index.html', 'home again')], { preview: false })).toBe(false);
    await expect(readFile(path.join(next, SEAL_FILE))).rejects.toThrow(/ENOENT/);
  });

  it('is damaged for deploy when its list no longer matches its digest, and one from an earlier version of site still passes', async () => {
    await writeSeal(live, files, { preview: false });
    expect(await sealProblem(live, files)).toBeUndefined();
    const seal = await read(live);
    const damaged = { ...seal, list: seal.list.map(([k, size, s]) => [k, k === 'feed.xml' ? size + 1 : size, s]) };
    await writeFile(path.join(live, SEAL_FILE), JSON.stringify(damaged));
    expect(await sealProblem(live, files)).toMatch(/\.site-build\.json is damaged: run `site build` again$/);
    // Earlier versions hashed a line per file ('key size sha256\n').
    const lines = createHash('sha256');
    for (const [k, size, s] of seal.list) lines.update(`${k} ${size} ${s}\n`);
    await writeFile(path.join(live, SEAL_FILE), JSON.stringify({ ...seal, digest: lines.digest('hex') }));
    expect(await sealProblem(live, files)).toBeUndefined();
  });
});
