// The build's check of the CloudFront functions against what JavaScript runtime 2.0 supports: a
// feature outside the runtime's list, planted in an emitted function or in the rule the request
// function is bundled from, is refused with one line naming it and its place.
import { chmodSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { viewerRequestFunction, viewerResponseFunction } from '../../src/url-resolution/cloudfront-functions.ts';
import { FunctionRuntimeError, runtimeProblems } from '../../src/url-resolution/function-runtime.ts';
import { describeBuildError } from '../../src/pipeline/errors.ts';
import { checkFunctionsInNjs, checkFunctionsInNjsOnce, NJS_CHECK_RECORD, NO_NJS } from '../../src/url-resolution/njs-check.ts';
import { NJS } from '../../src/url-resolution/njs-runtime.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const RUNTIME = "is not supported by CloudFront Functions' JavaScript runtime 2.0";

/** Each feature the runtime lacks, planted as a line of its own, and the name the check gives it. */
const PLANTED = [
  ['for…of', 'function planted(list) { var n = 0; for (var x of list) n += x; return n; }', 'for…of', 37],
  ['spread', 'function planted(list) { return Math.max(...list); }', 'spread (...)', 42],
  ['destructuring', 'function planted(pair) { var { a, b } = pair; return a + b; }', 'destructuring', 30],
  ['a default parameter', 'function planted(list, from = 0) { return list.slice(from); }', 'a default parameter', 24],
] as const;

const scratch: string[] = [];
afterAll(() => { for (const dir of scratch) rmSync(dir, { recursive: true, force: true }); });

/** The build error's lines for the viewer-request function of rule.ts with `code` added (exported, so that the bundle keeps it). */
async function plantedInRule(code: string): Promise<string[]> {
  const root = mkdtempSync(path.join(tmpdir(), 'site-fn-runtime-'));
  scratch.push(root);
  cpSync(path.join(ROOT, 'src/url-resolution/rule.ts'), path.join(root, 'src/url-resolution/rule.ts'));
  const rule = path.join(root, 'src/url-resolution/rule.ts');
  writeFileSync(rule, `${readFileSync(rule, 'utf8')}\nexport ${code}\n`);
  const error = await viewerRequestFunction(root).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(FunctionRuntimeError);
  return describeBuildError(error);
}

describe('the emitted functions hold only what the runtime supports', () => {
  test('both functions, as the build makes them, pass the check', async () => {
    expect(runtimeProblems(await viewerRequestFunction(ROOT), 'viewer-request.js')).toEqual([]);
    expect(runtimeProblems(await viewerResponseFunction(ROOT), 'viewer-response.js')).toEqual([]);
  });

  test.each(PLANTED)('%s planted in viewer-request.js is refused in one line that names it and its place', async (_what, code, name, column) => {
    const emitted = (await viewerRequestFunction(ROOT)).split('\n');
    // Planted as the third line: after the import and the bundled rule.
    const planted = [...emitted.slice(0, 2), code, ...emitted.slice(2)].join('\n');
    expect(runtimeProblems(planted, 'viewer-request.js')).toEqual([`viewer-request.js:3:${column}: ${name} ${RUNTIME}`]);
  });

  test.each(PLANTED)('%s in src/url-resolution/rule.ts stops the build\'s function, naming it', async (_what, code, name) => {
    const lines = await plantedInRule(code);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^error: viewer-request\\.js:2:\\d+: ${name.replace(/[.()]/g, '\\$&')} ${RUNTIME}$`));
    expect(lines[1]).toMatch(/^build stopped: the CloudFront functions use a feature their runtime lacks/);
  });

  test('the other features off the list are named too, and code that does not parse is one line', () => {
    const cases: Array<[string, string]> = [
      ['var o = {}; var v = o?.x;', 'optional chaining (?.)'],
      ['var v = null ?? 1;', 'nullish coalescing (??)'],
      ['class A {}', 'class'],
      ['function* g() {}', 'a generator function'],
      ['var k = "x"; var o = { [k]: 1 };', 'a computed property name'],
      ['var a = 1; var o = { a };', 'a shorthand property'],
      ['var o = { f() { return 1; } };', 'a method shorthand'],
      ['var f = async function () { return 1; };', 'an async closure (an async function expression or arrow)'],
      ['async function f(g) { return g(await g()); }', 'await in a call\'s arguments'],
      ["import x from 'fs';", "an import other than import cf from 'cloudfront'"],
      ['var t = String.raw`x`;', 'a tagged template'],
    ];
    for (const [code, name] of cases) expect({ code, problems: runtimeProblems(code, 'f.js') }).toEqual({ code, problems: [expect.stringContaining(`: ${name} ${RUNTIME}`)] });
    // What the runtime lists is let through.
    expect(runtimeProblems("import cf from 'cloudfront';\nconst a = 1; let b = 2 ** 3; var f = (x, ...rest) => `${x}${rest.length}`; async function g() { var v = await f(a); return v; }", 'f.js')).toEqual([]);
    expect(runtimeProblems('var = ;', 'f.js')).toEqual([expect.stringMatching(/^f\.js: Unexpected token \(1:4\): not JavaScript that CloudFront Functions can parse$/)]);
  });
});

/** What njs 0.7.9 or AWS's runtime 2.0 page refuses, each planted in rule.ts, and the name the build gives it. */
const RUNTIME_LACKS = [
  ['an optional catch binding', 'function planted(s) { try { return JSON.parse(s); } catch { return null; } }', 'an optional catch binding (catch without its (error))'],
  ['the regular expression flag s', 'var planted = /a.b/s;', 'the regular expression flag s (/…/s)'],
  ['the regular expression flag u', 'var planted = /a/u;', 'the regular expression flag u (/…/u)'],
  ['top-level await', 'var planted = await Promise.resolve(1);', 'Top-level await'],
  ['Array.from', 'function planted(x) { return Array.from(x); }', 'Array.from()'],
  ['.flat()', 'function planted(x) { return x.flat(); }', '.flat()'],
  ['Object.fromEntries', 'function planted(x) { return Object.fromEntries(x); }', 'Object.fromEntries()'],
  ['"x".at()', 'function planted() { return "x".at(0); }', '.at()'],
  ['new Function', 'function planted() { return new Function("return 1"); }', 'the Function constructor'],
  ['a nested async function', 'function planted() { async function inner() { return 1; } return inner; }', 'an async closure (an async function inside another function)'],
] as const;

describe('the built-ins and module-level rules the runtime lacks', () => {
  test.each(RUNTIME_LACKS)('%s in src/url-resolution/rule.ts stops the build in one line naming it and its place', async (_what, code, name) => {
    const lines = await plantedInRule(code);
    expect(lines).toHaveLength(2);
    // The place: the emitted function's line and column, or (what esbuild cannot lower) rule.ts's own.
    expect(lines[0]).toMatch(/^error: (viewer-request\.js:2|src\/url-resolution\/rule\.ts:\d+):\d+: /);
    expect(lines[0]).toContain(name);
  });

  test('the built-ins the runtime lists are let through, the code\'s own methods too', () => {
    const code = "import cf from 'cloudfront';\nvar kvs = cf.kvs();\nvar o = { f: function () { return 1; } };\nasync function g(k) { var v = await kvs.get(k); return [v].concat(Object.keys(o)).join('/').slice(1).replace(/a/g, 'b') + o.f() + Math.max(1, 2) + JSON.stringify([].includes(1)) + encodeURIComponent('x') + 'a'.padStart(2) + Array.isArray([]); }";
    expect(runtimeProblems(code, 'f.js')).toEqual([]);
    expect(runtimeProblems('var v = eval("1");', 'f.js')).toEqual([`f.js:1:9: eval() ${RUNTIME}`]);
    expect(runtimeProblems('var v = "a".replaceAll("a", "b");', 'f.js')).toEqual([`f.js:1:9: .replaceAll() ${RUNTIME}`]);
    expect(runtimeProblems('var v = /(?<=a)b/.test("ab");', 'f.js')).toEqual([`f.js:1:9: a lookbehind in a regular expression ${RUNTIME}`]);
  });

  test("the method list is AWS's runtime 2.0 page's: what it lists passes, what it leaves out is named", () => {
    const listed = 'var b = Buffer.from("a"); var v = [Object.is(1, 1), atob(btoa("x")), ArrayBuffer.isView(b), Uint8Array.of(1).subarray(0), b.readUInt16BE(0), new TextEncoder().encode("x"), new Date(0).setUTCHours(1), Symbol.for("k")];';
    expect(runtimeProblems(listed, 'f.js')).toEqual([]);
    const unlisted: Array<[string, string]> = [['"a".charCodeAt(0)', '.charCodeAt()'], ['String.raw({ raw: ["a"] })', 'String.raw()'], ['"a".normalize()', '.normalize()'], ['"a".localeCompare("b")', '.localeCompare()'], ['new MemoryError("x")', 'new MemoryError']];
    for (const [code, name] of unlisted) expect(runtimeProblems(`var v = ${code};`, 'f.js'), code).toEqual([`f.js:1:9: ${name} ${RUNTIME}`]);
  });
});

describe('the build runs both functions in njs', () => {
  test('over a handful of routes, each answered as site serve answers it; a function that answers otherwise is named with the route', async () => {
    const entries = [
      { key: 'rules', value: JSON.stringify({ notFound: '/404.html', fallbacks: [{ prefix: '/blog/', redirect: '/blog', status: 302 }] }) },
      { key: '/', value: 'page' }, { key: '/about', value: 'page' }, { key: '/blog', value: 'page' }, { key: '/old', value: '301 /about' },
    ];
    const code = { request: await viewerRequestFunction(ROOT), response: await viewerResponseFunction(ROOT) };
    expect(await checkFunctionsInNjs(code, entries)).toBe(true);
    // A defect no syntax check sees: a page's file named wrongly.
    const wrong = { ...code, request: code.request.replace('request.uri = answer.file;', "request.uri = answer.file.replace('.html', '');") };
    const error = await checkFunctionsInNjs(wrong, entries).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(FunctionRuntimeError);
    expect((error as FunctionRuntimeError).problems).toContain('viewer-request.js in njs: GET /about answered /about, where site serve answers /about.html');
    // Without njs, nothing is run, and the build's note says so in one line.
    expect(await checkFunctionsInNjs(wrong, entries, '/nonexistent/njs')).toBe(false);
    expect(NO_NJS.split('\n')).toHaveLength(1);
  });
});

describe('a check that passed is not run again', () => {
  test('for the same functions over the same entries; new entries, new functions or another njs run it again, and a check that fails is never recorded', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'site-njs-once-'));
    scratch.push(dir);
    // njs as the build finds it, through a script that counts its starts.
    const starts = path.join(dir, 'starts');
    const counted = path.join(dir, 'njs');
    writeFileSync(counted, `#!/bin/sh\necho >> ${starts}\nexec ${NJS} "$@"\n`);
    chmodSync(counted, 0o755);
    const started = () => (existsSync(starts) ? readFileSync(starts, 'utf8').length : 0);
    const cache = path.join(dir, 'cache');
    const entries = [{ key: 'rules', value: JSON.stringify({ notFound: '/404.html', fallbacks: [] }) }, { key: '/', value: 'page' }, { key: '/about', value: 'page' }];
    const code = { request: await viewerRequestFunction(ROOT), response: await viewerResponseFunction(ROOT) };

    expect(await checkFunctionsInNjsOnce(code, entries, cache, counted)).toBe(true);
    const once = started();
    expect(once).toBe(2); // one njs for each function
    expect(await checkFunctionsInNjsOnce(code, entries, cache, counted)).toBe(true);
    expect(started()).toBe(once);

    const more = [...entries, { key: '/contact', value: 'page' }];
    expect(await checkFunctionsInNjsOnce(code, more, cache, counted)).toBe(true);
    expect(started()).toBe(2 * once);
    // Both verdicts are kept: back to the first entries runs nothing.
    expect(await checkFunctionsInNjsOnce(code, entries, cache, counted)).toBe(true);
    expect(started()).toBe(2 * once);

    const wrong = { ...code, request: code.request.replace('request.uri = answer.file;', "request.uri = answer.file.replace('.html', '');") };
    for (let i = 1; i <= 2; i++) {
      await expect(checkFunctionsInNjsOnce(wrong, entries, cache, counted)).rejects.toBeInstanceOf(FunctionRuntimeError);
      expect(started()).toBe((2 + i) * once);
    }

    // Another njs binary (here the same one reached by another path) is another check.
    expect(await checkFunctionsInNjsOnce(code, entries, cache, NJS)).toBe(true);
    expect(started()).toBe(4 * once);
    // A record that cannot be read is a check not yet made.
    writeFileSync(path.join(cache, NJS_CHECK_RECORD), '{not json');
    expect(await checkFunctionsInNjsOnce(code, entries, cache, counted)).toBe(true);
    expect(started()).toBe(5 * once);
    expect(await checkFunctionsInNjsOnce(code, entries, cache, '/nonexistent/njs')).toBe(false);
  });
});
