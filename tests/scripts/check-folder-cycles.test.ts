import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script with no type declarations
import { folderCycles, runtimeImports } from '../../scripts/check-folder-cycles.mjs';

function project(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'cycles-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    writeFileSync(path.join(root, name), text);
  }
  return root;
}

describe('the folder-cycle check', () => {
  it('finds a cycle between two folders and names the imports that make it', () => {
    const root = project({
      'templates/a.tsx': `import { useSite } from '../src/render/context.tsx';\nexport const A = useSite;\n`,
      'src/render/context.tsx': `import { A } from '../../templates/a.tsx';\nexport const useSite = A;\n`,
    });
    const cycles = folderCycles(root);
    expect(cycles).toHaveLength(1);
    expect(cycles[0].nodes).toEqual(['src/render', 'templates']);
    expect(cycles[0].edges.map((e: { edge: string }) => e.edge).sort()).toEqual(['src/render -> templates', 'templates -> src/render']);
  });

  it('counts each file directly in src/ as a node of its own', () => {
    const root = project({
      'src/build.ts': `import { check } from '../quality/budgets.ts';\nexport const b = check;\n`,
      'quality/budgets.ts': `export const check = 1;\nexport { b } from '../src/build.ts';\n`,
      'src/cli.ts': `import { b } from './build.ts';\n`,
    });
    expect(folderCycles(root).map((c: { nodes: string[] }) => c.nodes)).toEqual([['quality', 'src/build.ts']]);
  });

  it('does not count type-only imports, which vanish at build time', () => {
    const root = project({
      'templates/a.tsx': `import type { Route } from '../src/routes/route.ts';\nimport { type PageMeta, type Other } from '../src/routes/route.ts';\nexport const a = 1;\n`,
      'src/routes/route.ts': `import { a } from '../../templates/a.tsx';\nexport type Route = typeof a;\n`,
    });
    expect(folderCycles(root)).toEqual([]);
  });

  it('counts a mixed import, a side-effect import, a re-export, a multi-line import and import()', () => {
    expect(runtimeImports([
      `import { type A, b } from './one.ts';`,
      `import './two.css';`,
      `export * from './three.ts';`,
      `import {\n  c,\n  d,\n} from './four.ts';`,
      `const m = await import('./five.ts');`,
      `// import { e } from './comment.ts';`,
    ].join('\n'))).toEqual(['./one.ts', './three.ts', './four.ts', './two.css', './five.ts']);
  });
});
