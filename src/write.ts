import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/** dist/ is written by this module alone: it is emptied, then every file of the build goes in. */
export class DistWriter {
  constructor(readonly outDir: string) {}

  async clean() {
    await rm(this.outDir, { recursive: true, force: true });
    await mkdir(this.outDir, { recursive: true });
  }

  /** `file` is the public path, with a leading slash. */
  async write(file: string, contents: string | Uint8Array) {
    const target = path.join(this.outDir, ...file.split('/').filter(Boolean));
    if (!target.startsWith(this.outDir + path.sep)) throw new Error(`refusing to write outside ${this.outDir}: ${file}`);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, contents);
  }

  async copy(from: string, file: string) {
    await this.write(file, await readFile(from));
  }
}

/** Files that are not public (the CDN function, the routing table, the headers) go beside dist/, never in it. */
export async function writeMeta(metaDir: string, files: Record<string, string>) {
  await mkdir(metaDir, { recursive: true });
  for (const [name, contents] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(metaDir, name)), { recursive: true });
    await writeFile(path.join(metaDir, name), contents);
  }
}

export function metaDirFor(outDir: string): string {
  return path.join(path.dirname(path.resolve(outDir)), 'build');
}
