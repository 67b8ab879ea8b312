import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { chooseEngine, engineVersions, RENDERER_ENV } from '../../src/cards/engine.ts';
import { CARD_MAX_BYTES } from '../../src/cards/draw.tsx';
import { differing, GOLDEN_DIR, MAX_DIFFERING } from './golden-cards.ts';

const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { dependencies: Record<string, string> };

describe('the engine that draws the cards', () => {
  it('is named in every card key by the exact versions the project pins', () => {
    const pinned = (name: string) => pkg.dependencies[name]!;
    expect(pinned('@takumi-rs/core')).toMatch(/^\d+\.\d+\.\d+$/);
    expect(engineVersions()).toBe(`takumi ${pinned('@takumi-rs/core')}, wasm ${pinned('@takumi-rs/wasm')}`);
  });

  it(`is takumi's WebAssembly build when ${RENDERER_ENV}=wasm, said once however often it is asked for`, async () => {
    const lines: string[] = [];
    const env = { [RENDERER_ENV]: 'wasm' };
    const [a, b] = [await chooseEngine(env, (l) => lines.push(l)), await chooseEngine(env, (l) => lines.push(l))];
    expect([a.name, b.name]).toEqual(['takumi-wasm', 'takumi-wasm']);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/WebAssembly build .*native binding did not load/);
  });

  it('draws the same cards, warning once, where the native binding cannot load', async () => {
    const out = await mkdtemp(path.join(os.tmpdir(), 'card-wasm-'));
    try {
      const names = ['home.png', 'blog-what-is-data.png', 'site.png'];
      // napi-rs's loader takes this path as the binding to load: one that is not there is a platform without one.
      const child = spawnSync(process.execPath, ['--import', 'tsx', 'tests/cards/draw-in-child.ts', out, ...names], {
        encoding: 'utf8', env: { ...process.env, TAKUMI_CORE_TARGET: path.join(out, 'no-such-binding.node') }, timeout: 110_000, // a hang guard within the test's own
      });
      expect(child.status, child.stderr).toBe(0);
      expect(child.stdout).toContain('engine takumi-wasm');
      expect(child.stderr.match(/WebAssembly build/g)).toHaveLength(1);
      for (const name of names) {
        const png = await readFile(path.join(out, name));
        const meta = await sharp(png).metadata();
        expect({ format: meta.format, width: meta.width, height: meta.height }, name).toEqual({ format: 'png', width: 1200, height: 630 });
        expect(png.byteLength).toBeLessThanOrEqual(CARD_MAX_BYTES);
        expect(await differing(png, await readFile(path.join(GOLDEN_DIR, name))), name).toBeLessThanOrEqual(MAX_DIFFERING);
      }
    } finally {
      await rm(out, { recursive: true, force: true });
    }
  });
});
