#!/usr/bin/env node
// The layering rule: no import cycle between folders. A node is each top-level folder and, inside
// src/, each sub-folder and each file directly in src/. Type-only imports do not count (they vanish
// at build time); dynamic import() does (it loads code at run time). Tests, fixtures and outputs are
// outside the rule. Exit 1 with each cycle and the imports that make it.
//   node scripts/check-folder-cycles.mjs [root]
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const SKIP = new Set(['node_modules', '.git', 'dist', 'build', 'tests', 'e2e', 'content', '.site-cache', 'test-results', 'fixtures', 'cdk.out']);
const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;

function sourceFiles(dir, out = []) {
  for (const name of readdirSync(dir)) {
    // `.dist.builds/` and the like: the trees a build writes beside its output folder.
    if (SKIP.has(name) || /^\..+\.builds$/.test(name)) continue;
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) sourceFiles(file, out);
    else if (SOURCE.test(name) && !/\.(test|spec)\./.test(name)) out.push(file);
  }
  return out;
}

/** The specifiers a module loads at run time: static imports and re-exports that are not type-only, and import(). */
export function runtimeImports(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const specs = [];
  for (const m of code.matchAll(/(?:^|[;\n])\s*(import|export)\s+([^'";]*?)\s*from\s*['"]([^'"]+)['"]/g)) {
    const clause = m[2].trim();
    if (/^type\b/.test(clause)) continue;
    const braces = /^\{([^}]*)\}$/.exec(clause);
    if (braces) {
      const names = braces[1].split(',').map((s) => s.trim()).filter(Boolean);
      if (names.length && names.every((n) => /^type\s/.test(n))) continue;
    }
    specs.push(m[3]);
  }
  for (const m of code.matchAll(/(?:^|[;\n])\s*import\s*['"]([^'"]+)['"]/g)) specs.push(m[1]);
  for (const m of code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1]);
  return specs;
}

function nodeOf(root, file) {
  const parts = path.relative(root, file).split(path.sep);
  if (parts.length === 1 || parts[0] === '..') return undefined;
  return parts[0] === 'src' ? `src/${parts[1]}` : parts[0];
}

/** Every cycle between folders (strongly connected components of more than one node), with the imports behind each edge. */
export function folderCycles(rootDir) {
  const root = path.resolve(rootDir);
  const edges = new Map();
  for (const file of sourceFiles(root)) {
    const from = nodeOf(root, file);
    if (!from) continue;
    for (const spec of runtimeImports(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const to = nodeOf(root, path.resolve(path.dirname(file), spec));
      if (!to || to === from) continue;
      const key = `${from} -> ${to}`;
      if (!edges.has(key)) edges.set(key, []);
      edges.get(key).push(`${path.relative(root, file)} imports ${spec}`);
    }
  }
  const next = new Map();
  for (const key of edges.keys()) {
    const [a, b] = key.split(' -> ');
    if (!next.has(a)) next.set(a, new Set());
    next.get(a).add(b);
  }
  // Tarjan's strongly connected components.
  let counter = 0;
  const index = new Map(), low = new Map(), stack = [], onStack = new Set(), cycles = [];
  const visit = (v) => {
    index.set(v, counter); low.set(v, counter); counter++;
    stack.push(v); onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do { w = stack.pop(); onStack.delete(w); component.push(w); } while (w !== v);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return cycles.map((nodes) => ({
    nodes,
    edges: [...edges].filter(([key]) => nodes.includes(key.split(' -> ')[0]) && nodes.includes(key.split(' -> ')[1])).map(([key, why]) => ({ edge: key, imports: why })),
  }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const cycles = folderCycles(process.argv[2] ?? '.');
  for (const c of cycles) {
    console.error(`import cycle between folders: ${c.nodes.join(', ')}`);
    for (const e of c.edges) console.error(`  ${e.edge}: ${e.imports.slice(0, 3).join('; ')}${e.imports.length > 3 ? ` (+${e.imports.length - 3})` : ''}`);
  }
  if (cycles.length) {
    console.error(`${cycles.length} folder cycle${cycles.length === 1 ? '' : 's'}: make each dependency point one way (type-only imports do not count)`);
    process.exitCode = 1;
  } else {
    console.log('folder cycles: none');
  }
}
