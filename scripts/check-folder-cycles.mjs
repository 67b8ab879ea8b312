#!/usr/bin/env node
// The layering rules, from the imports, type-only ones and import() included (a type is part of a
// module's surface: a folder that takes its types from one above it knows that floor all the same):
// 1. No import cycle between folders. A node is each top-level folder and, inside src/, each
//    sub-folder and each file directly in src/.
// 2. No import loop between the files of one such node (its sub-folders' files and src/'s own files
//    included).
// Tests, fixtures, content and outputs are outside the rules. Exit 1 with each cycle and loop, and
// the imports that make it.
//   node scripts/check-folder-cycles.mjs [root]
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Skipped wherever they are (.site/: what the tools write, beside the project's dist or a test's output folder). */
const SKIP = new Set(['node_modules', '.git', 'cdk.out', '.site']);
/** Skipped at the top only: the tests, the site's words, and what the tools write (src/content is code). */
const SKIP_AT_TOP = new Set(['dist', 'tests', 'e2e', 'content', 'test-results', 'fixtures']);
const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;

function sourceFiles(root, dir = root, out = []) {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name) || (dir === root && SKIP_AT_TOP.has(name))) continue;
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) sourceFiles(root, file, out);
    else if (SOURCE.test(name) && !/\.(test|spec)\./.test(name)) out.push(file);
  }
  return out;
}

/** Every specifier a module imports or re-exports, each with whether it is type-only. */
export function moduleImports(text) {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
  const found = [];
  for (const m of code.matchAll(/(?:^|[;\n])\s*(import|export)\s+([^'";]*?)\s*from\s*['"]([^'"]+)['"]/g)) {
    const clause = m[2].trim();
    const braces = /^\{([^}]*)\}$/.exec(clause);
    const names = braces ? braces[1].split(',').map((s) => s.trim()).filter(Boolean) : [];
    const typeOnly = /^type\b/.test(clause) || (names.length > 0 && names.every((n) => /^type\s/.test(n)));
    found.push({ spec: m[3], typeOnly });
  }
  for (const m of code.matchAll(/(?:^|[;\n])\s*import\s*['"]([^'"]+)['"]/g)) found.push({ spec: m[1], typeOnly: false });
  for (const m of code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) found.push({ spec: m[1], typeOnly: false });
  return found;
}


/** Tarjan's strongly connected components of more than one node. */
function components(next) {
  let counter = 0;
  const index = new Map(), low = new Map(), stack = [], onStack = new Set(), found = [];
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
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** The cycles of a graph given as `a -> b` edge keys, each with the imports behind its edges. */
function cyclesOf(edges) {
  const next = new Map();
  for (const key of edges.keys()) {
    const [a, b] = key.split(' -> ');
    if (!next.has(a)) next.set(a, new Set());
    next.get(a).add(b);
  }
  return components(next).map((nodes) => ({
    nodes,
    edges: [...edges].filter(([key]) => nodes.includes(key.split(' -> ')[0]) && nodes.includes(key.split(' -> ')[1])).map(([key, why]) => ({ edge: key, imports: why })),
  }));
}

function addEdge(edges, key, why) {
  if (!edges.has(key)) edges.set(key, []);
  edges.get(key).push(why);
}

function nodeOf(root, file) {
  const parts = path.relative(root, file).split(path.sep);
  if (parts.length === 1 || parts[0] === '..') return undefined;
  return parts[0] === 'src' ? `src/${parts[1]}` : parts[0];
}

/** The folder a file belongs to for the loop check: its folder-check node, or its own folder at the top. */
const homeOf = (root, file) => nodeOf(root, file) ?? (path.relative(root, path.dirname(file)).split(path.sep).join('/') || '.');

/** Every cycle between folders (strongly connected components of more than one node), with the imports behind each edge. */
export function folderCycles(rootDir) {
  const root = path.resolve(rootDir);
  const edges = new Map();
  for (const file of sourceFiles(root)) {
    const from = nodeOf(root, file);
    if (!from) continue;
    for (const { spec } of moduleImports(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const to = nodeOf(root, path.resolve(path.dirname(file), spec));
      if (!to || to === from) continue;
      addEdge(edges, `${from} -> ${to}`, `${path.relative(root, file)} imports ${spec}`);
    }
  }
  return cyclesOf(edges);
}

/**
 * Every import loop between the files of one folder (a node of the folder check: its sub-folders'
 * files count as its own): `folder` is the folder, `nodes` its files in the loop, and `edges` the
 * imports that close it. A loop through another folder is the folder check's.
 */
export function fileLoops(rootDir) {
  const root = path.resolve(rootDir);
  const edges = new Map();
  for (const file of sourceFiles(root)) {
    for (const { spec } of moduleImports(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue;
      const target = path.resolve(path.dirname(file), spec);
      if (target === file || homeOf(root, target) !== homeOf(root, file)) continue;
      const [from, to] = [file, target].map((f) => path.relative(root, f).split(path.sep).join('/'));
      addEdge(edges, `${from} -> ${to}`, `${from} imports ${spec}`);
    }
  }
  return cyclesOf(edges).map((loop) => ({ folder: homeOf(root, path.join(root, loop.nodes[0])), ...loop }));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = process.argv[2] ?? '.';
  const cycles = folderCycles(root);
  const loops = fileLoops(root);
  const show = (e) => console.error(`  ${e.edge}: ${e.imports.slice(0, 3).join('; ')}${e.imports.length > 3 ? ` (+${e.imports.length - 3})` : ''}`);
  for (const c of cycles) {
    console.error(`import cycle between folders: ${c.nodes.join(', ')}`);
    c.edges.forEach(show);
  }
  for (const l of loops) {
    console.error(`import loop inside ${l.folder}/: ${l.nodes.map((f) => path.posix.basename(f)).join(', ')}`);
    l.edges.forEach(show);
  }
  if (cycles.length) console.error(`${cycles.length} folder cycle${cycles.length === 1 ? '' : 's'}: make each dependency point one way (a type-only import counts: move the type down to the lowest folder that uses it)`);
  if (loops.length) console.error(`${loops.length} loop${loops.length === 1 ? '' : 's'} between the files of a folder: move what both need into a module of its own`);
  if (cycles.length || loops.length) process.exitCode = 1;
  else console.log('folder cycles: none; loops inside a folder: none');
}
