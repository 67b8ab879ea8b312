// One list of islands: islands/index.ts registers each (React components by import in `islands`,
// plain modules by name in `scriptIslands`), and the bundler finds their code by listing the
// folder. The two must agree, or a page would render a marker whose code is never bundled, or a file
// would be bundled that no page can use: the build stops and names the file.
import { realpathSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { build, type Metafile } from 'esbuild';

export const REGISTRY = 'islands/index.ts';

export class IslandRegistryError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('; '));
    this.name = 'IslandRegistryError';
  }
}

/**
 * Compares the island files in islands/ (`names`, without extension) with what islands/index.ts
 * registers; throws IslandRegistryError listing every disagreement. Answers esbuild's metafile of
 * the registry, so that a bundle cached on it is remade when the registry changes.
 */
export async function checkIslandRegistry(root: string, names: readonly string[]): Promise<Metafile> {
  // Which island files the registry imports, as esbuild resolves them: no guessing at the syntax.
  const result = await build({
    absWorkingDir: root, entryPoints: [REGISTRY], bundle: true, write: false, metafile: true,
    packages: 'external', platform: 'neutral', format: 'esm', jsx: 'automatic', logLevel: 'silent', loader: { '.css': 'empty' },
  });
  // esbuild names files by their real paths: islands/ may be a link (the bench links the project's code).
  const real = (file: string) => { try { return realpathSync(path.resolve(root, file)); } catch { return file; } };
  const folder = real('islands');
  const entry = Object.entries(result.metafile.inputs).find(([file]) => real(file) === path.join(folder, 'index.ts'))?.[1];
  const imported = (entry?.imports ?? [])
    .map((i) => real(i.path)).filter((file) => path.dirname(file) === folder).map((file) => path.basename(file).replace(/\.tsx?$/, ''));
  const text = await readFile(path.join(root, REGISTRY), 'utf8');
  const scriptList = /export const scriptIslands\s*=\s*\[([^\]]*)\]/.exec(text);
  const scripts = scriptList ? [...scriptList[1]!.matchAll(/['"]([^'"]+)['"]/g)].map((m) => m[1]!) : [];
  const registered = new Set([...imported, ...scripts]);
  const files = new Set(names);
  const problems = [
    ...names.filter((n) => !registered.has(n)).map((n) => `islands/${n} is not registered in ${REGISTRY}: import it into \`islands\` (a React component) or name it in \`scriptIslands\` (a plain module)`),
    ...[...registered].filter((n) => !files.has(n)).map((n) => `${REGISTRY} registers '${n}', but islands/ has no ${n}.tsx or ${n}.ts`),
  ];
  if (problems.length) throw new IslandRegistryError(problems);
  return result.metafile;
}
