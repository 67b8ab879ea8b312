import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script with no type declarations
import { fileLoops, folderCycles, moduleImports } from '../../scripts/check-folder-cycles.mjs';

const made: string[] = [];
afterAll(() => { for (const root of made) rmSync(root, { recursive: true, force: true }); });

function project(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'cycles-'));
  made.push(root);
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

  it('checks src/content, whose name is also the top-level folder of the words it skips', () => {
    const root = project({
      'src/content/images.ts': `import { sniff } from '../images/formats.ts';\nexport const load = sniff;\n`,
      'src/images/formats.ts': `import { ContentErrors } from '../content/images.ts';\nexport const sniff = ContentErrors;\n`,
      'content/blog/loop.ts': `import { x } from '../../src/content/images.ts';\nexport const y = x;\n`,
    });
    expect(folderCycles(root).map((c: { nodes: string[] }) => c.nodes)).toEqual([['src/content', 'src/images']]);
  });

  it('counts a type-only import: a folder that takes its types from one above it is a cycle all the same', () => {
    const root = project({
      'templates/a.tsx': `import type { Route } from '../src/routes/route.ts';\nimport { type PageMeta, type Other } from '../src/routes/route.ts';\nexport const a = 1;\n`,
      'src/routes/route.ts': `import { a } from '../../templates/a.tsx';\nexport type Route = typeof a;\n`,
    });
    const cycles = folderCycles(root);
    expect(cycles.map((c: { nodes: string[] }) => c.nodes)).toEqual([['src/routes', 'templates']]);
    expect(cycles[0].edges.find((e: { edge: string }) => e.edge === 'templates -> src/routes').imports).toEqual([
      'templates/a.tsx imports ../src/routes/route.ts', 'templates/a.tsx imports ../src/routes/route.ts',
    ]);
  });

  it('reads a mixed import, a side-effect import, a re-export, a multi-line import and import(), and no comment', () => {
    expect(moduleImports([
      `import { type A, b } from './one.ts';`,
      `import './two.css';`,
      `export * from './three.ts';`,
      `import {\n  c,\n  d,\n} from './four.ts';`,
      `const m = await import('./five.ts');`,
      `// import { e } from './comment.ts';`,
    ].join('\n')).map((i: { spec: string }) => i.spec)).toEqual(['./one.ts', './three.ts', './four.ts', './two.css', './five.ts']);
  });
});

type Loop = { folder: string; nodes: string[]; edges: { edge: string; imports: string[] }[] };

describe('the check for loops inside a folder', () => {
  it('finds two files of one folder that import each other, a type-only import included, and names the imports', () => {
    const root = project({
      'src/content/schemas.ts': `import { FORMS, type FormName } from './forms.ts';\nexport const schema = FORMS;\nexport type Settings = { form: FormName };\n`,
      'src/content/forms.ts': `import type { Settings } from './schemas.ts';\nexport const FORMS = ['a'];\nexport type FormName = string;\nexport const href = (s: Settings) => s.form;\n`,
    });
    const loops: Loop[] = fileLoops(root);
    expect(loops.map((l) => [l.folder, l.nodes])).toEqual([['src/content', ['src/content/forms.ts', 'src/content/schemas.ts']]]);
    expect(loops[0]!.edges.map((e) => e.imports).flat().sort()).toEqual(['src/content/forms.ts imports ./schemas.ts', 'src/content/schemas.ts imports ./forms.ts']);
  });

  it("finds a loop of three, not a chain that runs one way; a loop among src/'s own files is a folder cycle", () => {
    const root = project({
      'src/build.ts': `import { write } from './write-stage.ts';\nexport interface Session { a: number }\nexport const build = write;\n`,
      'src/write-stage.ts': `import type { Session } from './build.ts';\nexport const write = (s: Session) => s;\n`,
      'quality/sweep.ts': `import { axe } from './axe.ts';\nexport interface View { v: number }\nexport const sweep = axe;\n`,
      'quality/axe.ts': `import { report } from './report.ts';\nexport const axe = report;\n`,
      'quality/report.ts': `import type { View } from './sweep.ts';\nexport const report = (v: View) => v;\n`,
      'quality/browser.ts': `export const open = 1;\n`,
      'quality/run.ts': `import { sweep } from './sweep.ts';\nimport { open } from './browser.ts';\nexport const run = [sweep, open];\n`,
    });
    expect(fileLoops(root).map((l: Loop) => l.nodes)).toEqual([['quality/axe.ts', 'quality/report.ts', 'quality/sweep.ts']]);
    expect(folderCycles(root).map((c: { nodes: string[] }) => c.nodes)).toEqual([['src/build.ts', 'src/write-stage.ts']]);
  });

  it("counts the files of a folder's sub-folders as the folder's own", () => {
    const root = project({
      'src/pipeline/stages/render.ts': `import type { Summary } from '../summary.ts';\nexport const render = (s: Summary) => s;\n`,
      'src/pipeline/summary.ts': `import { render } from './stages/render.ts';\nexport type Summary = { r: typeof render };\n`,
    });
    expect(fileLoops(root).map((l: Loop) => [l.folder, l.nodes])).toEqual([['src/pipeline', ['src/pipeline/stages/render.ts', 'src/pipeline/summary.ts']]]);
  });

  it('leaves loops through another folder to the folder check, and a file importing itself out', () => {
    const root = project({
      'src/content/a.ts': `import { b } from '../images/b.ts';\nexport const a = b;\n`,
      'src/images/b.ts': `import { a } from '../content/a.ts';\nexport const b = a;\n`,
      'src/content/self.ts': `export const s = 1;\nexport * from './self.ts';\n`,
    });
    expect(fileLoops(root)).toEqual([]);
    expect(folderCycles(root)).toHaveLength(1);
  });

  it('tells type-only imports from the rest', () => {
    expect(moduleImports([
      `import type { A } from './a.ts';`,
      `import { type B, type C } from './b.ts';`,
      `import { type D, e } from './d.ts';`,
      `export type { F } from './f.ts';`,
    ].join('\n'))).toEqual([
      { spec: './a.ts', typeOnly: true },
      { spec: './b.ts', typeOnly: true },
      { spec: './d.ts', typeOnly: false },
      { spec: './f.ts', typeOnly: true },
    ]);
  });

  it('finds no folder cycle and no loop inside a folder in this repository', () => {
    expect(folderCycles('.')).toEqual([]);
    expect(fileLoops('.')).toEqual([]);
  });
});
