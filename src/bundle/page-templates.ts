// The module `site:page-templates`, made from the registry of kinds of page (templateModules of
// src/routes/kinds.ts, which the callers pass): each kind's templates module imported, so no
// hand-kept list of templates exists to drift. The render stage's code (src/pool/code.ts) and the
// CMS's previews (src/cms/bundle.ts) import it through an alias to the file written here; tests read
// the same source (vitest.config.ts). An alias, not a plugin: esbuild would wait for the main thread,
// busy reading the content as a build starts, to answer a plugin (see pool/code-packages.ts).
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { CACHE_DIR } from '../output/layout.ts';
import { writeBeside } from '../temp-file.ts';

export const PAGE_TEMPLATES = 'site:page-templates';

/** Where the module is written for the bundles, from the project folder. */
export const pageTemplatesFile = (root: string) => path.join(root, CACHE_DIR, 'page-templates.mjs');

/** The kinds whose templates module is not at the path the registry gives, each named in a sentence. */
export function missingTemplateModules(root: string, modules: Record<string, string>): string[] {
  return Object.entries(modules).filter(([, file]) => !existsSync(path.resolve(root, file)))
    .map(([kind, file]) => `the page kind "${kind}" names its templates module ${file}, which does not exist`);
}

/**
 * The module's source: `templatesByKind`, each kind's templates module and its path (see routes/template-map.ts).
 * With `from`, the folder the module is written to, each import is relative to it, so that the file and
 * the bundles made from it are the same in a copy of the project elsewhere; without, absolute (a module
 * with no folder of its own, as vitest's is).
 */
export function pageTemplatesSource(root: string, modules: Record<string, string>, from?: string): string {
  const kinds = Object.entries(modules);
  const specifier = (file: string) => {
    const at = path.resolve(root, file);
    if (from === undefined) return at;
    const relative = path.relative(from, at).split(path.sep).join('/');
    return relative.startsWith('.') ? relative : `./${relative}`;
  };
  return [
    ...kinds.map(([, file], i) => `import * as kind${i} from ${JSON.stringify(specifier(file))};`),
    `export const templatesByKind = {${kinds.map(([kind, file], i) => `\n  ${JSON.stringify(kind)}: { file: ${JSON.stringify(file)}, module: kind${i} },`).join('')}\n};`,
    '',
  ].join('\n');
}

/**
 * Writes the module where the bundles' alias points (only when its text changes, so an unchanged
 * bundle stays cached); a templates module missing from its place is an error naming the kind.
 */
export async function writePageTemplates(root: string, modules: Record<string, string>): Promise<string> {
  const missing = missingTemplateModules(root, modules);
  if (missing.length) throw new Error(missing.join('; '));
  const file = pageTemplatesFile(root);
  const text = pageTemplatesSource(root, modules, path.dirname(file));
  if (await readFile(file, 'utf8').catch(() => undefined) === text) return file;
  await mkdir(path.dirname(file), { recursive: true });
  await writeBeside(file, text);
  return file;
}
