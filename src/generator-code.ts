import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashOf } from './hash.ts';

let known: string | undefined;

/**
 * A hash of the generator's own code: what turns content into routes, which no bundle of the
 * project's templates covers. Run compiled (.site/cli), it is the hash scripts/build-cli.mjs wrote
 * into the stamp beside the chunks; run from src/ (the tests), or beside a stamp without one, it is
 * the hash of every code file in the folder it runs from.
 */
export function generatorCode(): string {
  return (known ??= fromStamp() ?? codeTreeHash(path.dirname(fileURLToPath(import.meta.url))));
}

function fromStamp(): string | undefined {
  try {
    const stamp = JSON.parse(readFileSync(new URL('./stamp.json', import.meta.url), 'utf8')) as { code?: unknown };
    return typeof stamp.code === 'string' ? stamp.code : undefined;
  } catch {
    return undefined;
  }
}

/** Every code file under `dir` (.ts, .tsx, .js, .mjs), by path and contents. */
export function codeTreeHash(dir: string): string {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(?:tsx?|m?js)$/.test(f)).sort();
  return hashOf(...files.flatMap((f) => [f, readFileSync(path.join(dir, f))]));
}
