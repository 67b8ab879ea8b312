// The two CloudFront Functions (JavaScript runtime 2.0). The request function is
// src/url-resolution/rule.ts bundled with a small handler that reads the routing entries from the
// CloudFront KeyValueStore associated with it; no page is in its code, so it is the same, byte for
// byte, whatever the site holds, and a new page needs a new entry in the store (`site deploy`),
// never a new function. The response function reads no store: it gives an error page its status
// from the object's own metadata, which `site deploy` sets (ERROR_STATUS_HEADER).
// Both are written in, and checked against, what the runtime supports (function-runtime.ts).
import path from 'node:path';
import { parse, type Node } from 'acorn';
import { build, type Message } from 'esbuild';
import { cachedBundle } from '../bundle/bundle-cache.ts';
import { FunctionRuntimeError, runtimeProblems } from './function-runtime.ts';
import { ERROR_STATUS_HEADER, STORE_LIMITS } from './store-data.ts';
import { PREVIEW_HOST } from './rule.ts';

export { ERROR_STATUS_HEADER, ERROR_STATUS_METADATA } from './store-data.ts';

/** CloudFront Functions allow 10 KB of code. */
export const FUNCTION_SIZE_LIMIT = 10 * 1024;

/** The runtime's module for the store; a function with a store associated reads it through `cf.kvs()`. */
export const KVS_IMPORT = "import cf from 'cloudfront';";


/**
 * rule.ts as a script: esbuild's ES module output (which has none of the IIFE format's helpers,
 * whose `for…of` the runtime refuses), its closing `export { … }` made the return value of a
 * function called once, held in `routing`.
 */
async function ruleScript(root: string): Promise<{ result: string; metafiles: import('esbuild').Metafile[] }> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [path.join(root, 'src/url-resolution/rule.ts')],
    bundle: true, write: false, format: 'esm', target: 'es2019', minify: true, logLevel: 'silent', metafile: true,
    // Not the project's tsconfig.json (whose "strict" would add a directive): the same bytes for every project.
    tsconfigRaw: {},
  }).catch((error: unknown) => {
    // What esbuild cannot lower to the target (top-level await): one line each, by its place in rule.ts.
    const errors = (error as { errors?: Message[] }).errors;
    if (!errors?.length) throw error;
    throw new FunctionRuntimeError(errors.map((e) => `${e.location ? `${e.location.file}:${e.location.line}:${e.location.column + 1}` : 'src/url-resolution/rule.ts'}: ${e.text}`));
  });
  const code = result.outputFiles[0]!.text.trim();
  const tree = parse(code, { ecmaVersion: 'latest', sourceType: 'module' });
  const exported = tree.body.filter((n) => n.type === 'ExportNamedDeclaration') as Array<Node & { specifiers: Array<{ local: { name: string }; exported: { name: string } }> }>;
  if (exported.length !== 1 || exported[0]!.end !== tree.end) throw new Error('src/url-resolution/rule.ts: esbuild\'s output does not end with its one export list');
  const names = exported[0]!.specifiers.map((s) => `${s.exported.name}:${s.local.name}`).join(',');
  return { result: `var routing=function(){${code.slice(0, exported[0]!.start)}return{${names}}}();`, metafiles: [result.metafile] };
}

/** Each function's code, checked against the runtime's features; a FunctionRuntimeError names every place that is not. */
function checked(code: string, file: string): string {
  const problems = runtimeProblems(code, file);
  if (problems.length > 0) throw new FunctionRuntimeError(problems);
  return code;
}

/**
 * The viewer-request function (`cacheDir`: where the bundled rule is kept, see
 * bundle/bundle-cache.ts; none: bundled afresh). A redirect or a refusal is answered at the edge;
 * otherwise the URI is rewritten to the page's file. On a pull request's preview host (rule.ts,
 * previewOf) the same rule runs over that preview's keys, the URI goes to its files, every answer
 * made here is `noindex`, and a preview the store holds no rules for is a 404.
 *
 * Store reads: one after another, as the runtime's guide advises (a Promise.all costs memory and
 * gains nothing there). The helper rejects a key it does not hold, and may reject for other
 * reasons, which it does not tell apart: so a rejected get() asks exists(), and only a key that
 * does not exist is missing. Any other failure, or a `rules` value that is not the rules, answers
 * by the file's name alone and sends nothing a browser keeps: a page is still its file, and a
 * redirect (only the URL's own tidying is left) goes out `no-store`. Until the store holds the
 * rules (a distribution whose store `site deploy` has not yet filled) every page is answered the
 * same way, by its file's name. The fallbacks' redirects (an unknown article to /blog) are
 * `no-store` too: an edge that has not yet seen a new article's key sends its reader to /blog, and
 * the browser must ask again, not keep that for minutes.
 */
export async function viewerRequestFunction(root: string, cacheDir?: string): Promise<string> {
  const rule = () => ruleScript(root);
  // Kept in the build cache while rule.ts and what it imports are unchanged: a rebuild starts no esbuild for it.
  const code = cacheDir === undefined
    ? (await rule()).result
    : await cachedBundle(root, cacheDir, 'cdn-rule-script', String(ruleScript), rule, (text) => text, (saved) => (typeof saved === 'string' ? saved : undefined));
  return checked(`${KVS_IMPORT}
${code}
var kvs = cf.kvs();
var DESCRIPTIONS = { 301: 'Moved Permanently', 302: 'Found', 307: 'Temporary Redirect', 308: 'Permanent Redirect' };
async function read(key, state) {
  // No key is longer (the build refuses a page's), and the store refuses to look one up.
  if (key.length > ${STORE_LIMITS.keyBytes}) return undefined;
  try { return await kvs.get(key); } catch (e) {}
  var exists = true;
  try { exists = await kvs.exists(key); } catch (e) {}
  if (exists !== false) state.failed = true;
  return undefined;
}
function rulesFrom(text) {
  var rules;
  try { rules = JSON.parse(text); } catch (e) { return undefined; }
  if (!rules || typeof rules.notFound !== 'string' || !Array.isArray(rules.fallbacks)) return undefined;
  if (rules.hosts !== undefined && (!rules.hosts || typeof rules.hosts.site !== 'string' || typeof rules.hosts.cms !== 'string')) return undefined;
  for (var i = 0; i < rules.fallbacks.length; i++) {
    var f = rules.fallbacks[i];
    if (!f || typeof f.prefix !== 'string' || typeof f.status !== 'number' || (f.redirect === undefined) === (f.file === undefined)) return undefined;
  }
  return rules;
}
function byName(uri) {
  return function (key) { return key === uri && key.slice(key.lastIndexOf('/') + 1).indexOf('.') === -1 ? routing.PAGE : undefined; };
}
async function route(uri, host, scope) {
  var state = { failed: false };
  var text = await read(scope + routing.RULES_KEY, state);
  // A preview the store holds no rules for: no such pull request (or one closed and removed).
  if (scope && text === undefined && !state.failed) return { answer: { kind: 'none' } };
  var rules = text === undefined ? undefined : rulesFrom(text);
  var keys = routing.keysFor(uri);
  var found = {};
  if (rules !== undefined) for (var i = 0; i < keys.length; i++) found[keys[i]] = await read(scope + keys[i], state);
  var degraded = state.failed || (text !== undefined && rules === undefined);
  if (rules === undefined || state.failed) {
    return { answer: routing.answer(uri, { notFound: rules ? rules.notFound : '/404.html', fallbacks: [] }, byName(uri)), keep: !degraded };
  }
  var answer = routing.answer(uri, rules, function (key) { return found[key]; }, host);
  // Kept by browsers: the URL's tidying, a '.html' name of a page, a redirect the store holds; never a fallback's.
  var keep = keys.indexOf(uri) === -1 || found[uri] !== undefined || (keys.length === 2 && found[keys[0]] === routing.PAGE);
  return { answer: answer, keep: keep };
}
function query(qs) {
  var parts = [];
  for (var key in qs) {
    var v = qs[key];
    if (v.multiValue) for (var i = 0; i < v.multiValue.length; i++) parts.push(key + (v.multiValue[i].value ? '=' + v.multiValue[i].value : ''));
    else parts.push(key + (v.value ? '=' + v.value : ''));
  }
  return parts.length ? '?' + parts.join('&') : '';
}
async function handler(event) {
  var request = event.request;
  var host = request.headers && request.headers.host ? request.headers.host.value : undefined;
  var preview = routing.previewOf(host);
  var routed = await route(request.uri, host, preview ? preview + ':' : '');
  var answer = routed.answer;
  // A preview's answers are never indexed, whoever makes them (the response function marks the rest).
  var headers = preview ? { 'x-robots-tag': { value: 'noindex' } } : {};
  if (answer.kind === 'none') {
    headers['cache-control'] = { value: 'no-store' };
    return { statusCode: 404, statusDescription: 'Not Found', headers: headers };
  }
  if (answer.kind === 'bad-request') return { statusCode: 400, statusDescription: 'Bad Request', headers: headers };
  if (answer.kind === 'redirect') {
    headers.location = { value: answer.location + query(request.querystring || {}) };
    headers['cache-control'] = { value: routed.keep ? 'public, max-age=300' : 'no-store' };
    return { statusCode: answer.status, statusDescription: DESCRIPTIONS[answer.status] || 'Redirect', headers: headers };
  }
  request.uri = answer.file;
  // A preview's files are under its own folder.
  if (preview) request.uri = '/' + preview + request.uri;
  return request;
}
`, 'viewer-request.js');
}

/**
 * The viewer-response function: an error page's object (the 404 page, the unknown-case-study page)
 * carries its status in ERROR_STATUS_HEADER, where S3 answered 200; the function gives the answer
 * that status and drops the header. No store read, whatever URL the page was reached by. On a
 * pull request's preview host (rule.ts, PREVIEW_HOST) every answer is marked `noindex`.
 */
export async function viewerResponseFunction(_root: string, _cacheDir?: string): Promise<string> {
  return checked(`var DESCRIPTIONS = { 404: 'Not Found', 410: 'Gone' };
function handler(event) {
  var response = event.response;
  var headers = response.headers || {};
  response.headers = headers;
  var request = event.request || {};
  var host = request.headers && request.headers.host ? request.headers.host.value : '';
  if (${PREVIEW_HOST}.test(host.toLowerCase())) headers['x-robots-tag'] = { value: 'noindex' };
  var marked = headers['${ERROR_STATUS_HEADER}'];
  if (!marked) return response;
  delete headers['${ERROR_STATUS_HEADER}'];
  var status = Number(marked.value);
  if (response.statusCode === 200 && status >= 400 && status < 600) {
    response.statusCode = status;
    response.statusDescription = DESCRIPTIONS[status] || 'Error';
  }
  return response;
}
`, 'viewer-response.js');
}
