// The two CloudFront Functions (JavaScript runtime 2.0): src/url-resolution/rule.ts bundled with a small
// handler that reads the routing entries from the CloudFront KeyValueStore associated with the
// function. No page is in their code: it is the same, byte for byte, whatever the site holds, and
// a new page needs a new entry in the store (`site deploy`), never a new function.
import path from 'node:path';
import { build } from 'esbuild';
import { cachedBundle } from '../bundle/bundle-cache.ts';

/** CloudFront Functions allow 10 KB of code. */
export const FUNCTION_SIZE_LIMIT = 10 * 1024;

/** The runtime's module for the store; a function with a store associated reads it through `cf.kvs()`. */
export const KVS_IMPORT = "import cf from 'cloudfront';";

/**
 * The shared part (`cacheDir`: where the bundled rule is kept, see bundle/bundle-cache.ts; none: bundled afresh): the rule as `routing`, and `route(uri)`, its answer from the store. The store's
 * helper rejects a key it does not hold, hence `read`; keys are read one after another, as the
 * runtime's guide advises (a Promise.all costs memory and gains nothing there). Until the store
 * holds the rules (a distribution whose store `site deploy` has not yet filled) every page is still
 * answered, by its file's name: only redirects ('/about.html' and the redirect table's) and the
 * fallbacks for unknown paths wait for the store.
 */
async function prelude(root: string, cacheDir: string | undefined): Promise<string> {
  const rule = async () => {
    const result = await build({
      absWorkingDir: root,
      entryPoints: [path.join(root, 'src/url-resolution/rule.ts')],
      bundle: true, write: false, format: 'iife', globalName: 'routing', target: 'es2019', minify: true, logLevel: 'silent', metafile: true,
      // Not the project's tsconfig.json (whose "strict" would add a directive): the same bytes for every project.
      tsconfigRaw: {},
    });
    return { result: result.outputFiles[0]!.text.trim(), metafiles: [result.metafile] };
  };
  // Kept in the build cache while rule.ts and what it imports are unchanged: a rebuild starts no esbuild for it.
  const code = cacheDir === undefined
    ? (await rule()).result
    : await cachedBundle(root, cacheDir, 'cdn-rule', String(rule), rule, (text) => text, (saved) => (typeof saved === 'string' ? saved : undefined));
  return `${KVS_IMPORT}
${code}
var kvs = cf.kvs();
async function read(key) {
  try { return await kvs.get(key); } catch (e) { return undefined; }
}
function byName(uri) {
  return function (key) { return key === uri && key.slice(key.lastIndexOf('/') + 1).indexOf('.') === -1 ? routing.PAGE : undefined; };
}
async function route(uri) {
  var rules = await read(routing.RULES_KEY);
  if (rules === undefined) return routing.answer(uri, { notFound: '/404.html', fallbacks: [] }, byName(uri));
  var keys = routing.keysFor(uri);
  var found = {};
  for (var i = 0; i < keys.length; i++) found[keys[i]] = await read(keys[i]);
  return routing.answer(uri, JSON.parse(rules), function (key) { return found[key]; });
}
`;
}

/** The viewer-request function: a redirect or a refusal answered at the edge; otherwise the URI rewritten to the page's file, marked for the response function when its status is not 200. */
export async function viewerRequestFunction(root: string, cacheDir?: string): Promise<string> {
  return `${await prelude(root, cacheDir)}function query(qs) {
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
  var answer = await route(request.uri);
  if (answer.kind === 'bad-request') return { statusCode: 400, statusDescription: 'Bad Request' };
  if (answer.kind === 'redirect') {
    return {
      statusCode: answer.status,
      statusDescription: answer.status === 301 ? 'Moved Permanently' : 'Found',
      headers: { location: { value: answer.location + query(request.querystring || {}) }, 'cache-control': { value: 'public, max-age=300' } }
    };
  }
  request.uri = answer.file;
  if (answer.status !== 200) request.headers['x-site-status'] = { value: String(answer.status) };
  return request;
}
`;
}

/**
 * The viewer-response function: gives pages that routing answers with an error status (the 404
 * page, the unknown-case-study page) that status, where S3 answered 200. It reads the marker the
 * request function set and, should CloudFront not pass it on, works the status out again from
 * the URI, whether it sees the visitor's URI or the rewritten file.
 */
export async function viewerResponseFunction(root: string, cacheDir?: string): Promise<string> {
  return `${await prelude(root, cacheDir)}async function handler(event) {
  var request = event.request;
  var response = event.response;
  if (response.statusCode !== 200) return response;
  var marked = request.headers['x-site-status'];
  var status = 200;
  if (marked) status = Number(marked.value);
  else {
    var answer = await route(request.uri);
    if (answer.kind === 'file') status = answer.status;
  }
  if (status !== 200) {
    response.statusCode = status;
    response.statusDescription = status === 404 ? 'Not Found' : 'Error';
  }
  return response;
}
`;
}
