// The module `site:page-templates`, made from the registry of kinds of page (templateModules of
// src/routes/kinds.ts, which the callers pass): each kind's templates module imported, so no
// hand-kept list of templates exists to drift. The render stage's code (src/pool/code.ts) and the
// CMS's previews (src/cms/bundle.ts) are bundled with it; tests read the same source (vitest.config.ts).
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'esbuild';

export const PAGE_TEMPLATES = 'site:page-templates';

/** The kinds whose templates module is not at the path the registry gives, each named in a sentence. */
export function missingTemplateModules(root: string, modules: Record<string, string>): string[] {
  return Object.entries(modules).filter(([, file]) => !existsSync(path.join(root, file)))
    .map(([kind, file]) => `the page kind "${kind}" names its templates module ${file}, which does not exist`);
}

/** The module's source: `templatesByKind`, each kind's templates module and its path (see routes/template-map.ts). */
export function pageTemplatesSource(root: string, modules: Record<string, string>): string {
  const kinds = Object.entries(modules);
  return [
    ...kinds.map(([, file], i) => `import * as kind${i} from ${JSON.stringify(path.join(root, file))};`),
    `export const templatesByKind = {${kinds.map(([kind, file], i) => `\n  ${JSON.stringify(kind)}: { file: ${JSON.stringify(file)}, module: kind${i} },`).join('')}\n};`,
  ].join('\n');
}

/** esbuild's plugin serving the module; a templates module missing from its place fails the bundle, naming the kind. */
export function pageTemplatesPlugin(root: string, modules: Record<string, string>): Plugin {
  return {
    name: 'page-templates',
    setup(b) {
      b.onResolve({ filter: /^site:page-templates$/ }, () => ({ path: PAGE_TEMPLATES, namespace: 'page-templates' }));
      b.onLoad({ filter: /.*/, namespace: 'page-templates' }, () => {
        const missing = missingTemplateModules(root, modules);
        if (missing.length) return { errors: missing.map((text) => ({ text })) };
        return { contents: pageTemplatesSource(root, modules), loader: 'js', resolveDir: root };
      });
    },
  };
}
