/**
 * The engine that draws share cards: takumi (Rust: lays React elements out and rasterises them
 * straight to PNG), through its native binding, or, where that binding cannot load, through its
 * WebAssembly build (the same engine and version, a few times slower to start and to draw).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';
import type { MeasuredNode, RenderOptions } from '@takumi-rs/core';
import { cardFonts } from './fonts.ts';
import { woffToSfnt } from './font-metrics.ts';

/**
 * `SITE_CARD_RENDERER=wasm` takes the native binding as unloadable: the fallback a platform without
 * it gets, warning included, on purpose (to compare, or to test it).
 */
export const RENDERER_ENV = 'SITE_CARD_RENDERER';

/** What both builds of takumi offer: the same class, loaded from either package. */
export interface CardRenderer {
  render(node: Node, options: RenderOptions): Promise<Uint8Array>;
  measure(node: Node, options: RenderOptions): Promise<MeasuredNode>;
}
type Node = Parameters<typeof import('@takumi-rs/core').Renderer.prototype.render>[0];
export interface CardEngine { name: 'takumi' | 'takumi-wasm'; renderer: CardRenderer }

const require = createRequire(import.meta.url);

/** A package's version, from the package.json beside its entry (neither package exports that file). */
function versionOf(name: string): string {
  for (let dir = path.dirname(require.resolve(name)); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    const pkg = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string } : undefined;
    if (pkg?.name === name) return pkg.version;
  }
  throw new Error(`no package.json found for ${name}`);
}

let versions: string | undefined;
/**
 * Both builds' versions, read from disk without loading either: part of every card's key, so that
 * an upgrade of takumi (whose drawing moves a pixel here and there) names every card anew.
 */
export function engineVersions(): string {
  return (versions ??= `takumi ${versionOf('@takumi-rs/core')}, wasm ${versionOf('@takumi-rs/wasm')}`);
}

/** Inter registered with the renderer: latin-ext as a family of its own, which takumi falls back to per character. */
async function withFonts<R extends { registerFont(font: { name: string; data: Uint8Array; weight: number; style: string }): Promise<unknown> }>(renderer: R): Promise<R> {
  for (const font of cardFonts().fonts) await renderer.registerFont({ name: font.name, data: woffToSfnt(font.data), weight: font.weight, style: font.style });
  return renderer;
}

async function nativeEngine(): Promise<CardEngine> {
  const { Renderer } = await import('@takumi-rs/core');
  return { name: 'takumi', renderer: await withFonts(new Renderer()) };
}

export async function wasmEngine(): Promise<CardEngine> {
  // The node entry compiles the .wasm from disk, synchronously, as it is imported.
  const { Renderer } = await import('@takumi-rs/wasm/node');
  return { name: 'takumi-wasm', renderer: await withFonts(new Renderer()) };
}

/** Once per process, though the CLI and the build's bundled code each hold a copy of this module. */
const WARNED = Symbol.for('site.cardEngine.warned');

/**
 * Set in the process a build starts to draw its cards (card-process.ts): it falls back silently, as
 * a worker does, the build's main thread having said it.
 */
export const FALLBACK_SAID_ENV = 'SITE_CARD_FALLBACK_SAID';

/**
 * Whether takumi's native binding loads in this process; when it does not, one warning line (on the
 * main thread only: a worker, or the card process, falls back silently, the main thread having said
 * it for the build). The build asks on its main thread before any card is drawn, wherever it is
 * drawn, so that the line is printed there, once.
 */
export async function nativeLoads(env: NodeJS.ProcessEnv = process.env, warn: (line: string) => void = console.warn): Promise<boolean> {
  try {
    if (env[RENDERER_ENV] === 'wasm') throw new Error(`${RENDERER_ENV}=wasm`);
    await import('@takumi-rs/core');
    return true;
  } catch (error) {
    const g = globalThis as { [WARNED]?: boolean };
    if (isMainThread && !g[WARNED] && env[FALLBACK_SAID_ENV] !== '1') {
      g[WARNED] = true;
      const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
      warn(`site: share cards are drawn with takumi's WebAssembly build (the same cards, slower): its native binding did not load (${reason})`);
    }
    return false;
  }
}

/** The native engine when its binding loads, else the WebAssembly one. */
export async function chooseEngine(env: NodeJS.ProcessEnv = process.env, warn: (line: string) => void = console.warn): Promise<CardEngine> {
  return (await nativeLoads(env, warn)) ? nativeEngine() : wasmEngine();
}

/** On the thread's global object, since the CLI and the build's bundled code each hold a copy of this module. */
const CHOSEN = Symbol.for('site.cardEngine');

/**
 * This thread's engine, chosen once, its fonts registered: made by whichever copy of this module
 * asks first, used by both (a test, say, draws with the CLI's copy beside the bundled one).
 */
export function cardEngine(): Promise<CardEngine> {
  const g = globalThis as { [CHOSEN]?: Promise<CardEngine> };
  return (g[CHOSEN] ??= chooseEngine());
}
