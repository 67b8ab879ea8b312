// The build's check of the CloudFront functions against what JavaScript runtime 2.0 supports: a
// feature outside the runtime's list, planted in an emitted function or in the rule the request
// function is bundled from, is refused with one line naming it and its place.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { viewerRequestFunction, viewerResponseFunction } from '../../src/url-resolution/cloudfront-functions.ts';
import { FunctionRuntimeError, runtimeProblems } from '../../src/url-resolution/function-runtime.ts';
import { describeBuildError } from '../../src/pipeline/errors.ts';

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
    const root = mkdtempSync(path.join(tmpdir(), 'site-fn-runtime-'));
    scratch.push(root);
    cpSync(path.join(ROOT, 'src/url-resolution/rule.ts'), path.join(root, 'src/url-resolution/rule.ts'));
    const rule = path.join(root, 'src/url-resolution/rule.ts');
    // Exported, so that the bundle keeps it.
    writeFileSync(rule, `${readFileSync(rule, 'utf8')}\nexport ${code}\n`);
    const error = await viewerRequestFunction(root).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(FunctionRuntimeError);
    const lines = describeBuildError(error);
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
