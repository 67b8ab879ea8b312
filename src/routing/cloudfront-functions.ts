import path from 'node:path';
import { build } from 'esbuild';
import type { RoutingTable } from './resolve.ts';

/** CloudFront Functions allow 10 KB of code. */
export const FUNCTION_SIZE_LIMIT = 10 * 1024;

/**
 * The CloudFront viewer-request function: src/routing/resolve.ts itself, bundled for CloudFront's
 * JavaScript runtime 2.0 (no modules), with the build's routing table inlined. A page answered
 * with a non-200 status is marked for the viewer-response function, which sets that status.
 */
/** src/routing/resolve.ts as a CloudFront-compatible script defining `routing.resolve`, plus the table. */
async function routingScript(root: string, table: RoutingTable): Promise<string> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [path.join(root, 'src/routing/resolve.ts')],
    bundle: true, write: false, format: 'iife', globalName: 'routing', target: 'es2019', minify: true, logLevel: 'silent',
  });
  return `${result.outputFiles[0]!.text.trim()}\nvar TABLE = ${JSON.stringify(table)};\n`;
}

export async function viewerRequestFunction(root: string, table: RoutingTable): Promise<string> {
  return `${await routingScript(root, table)}function query(qs) {
  var parts = [];
  for (var key in qs) {
    var v = qs[key];
    if (v.multiValue) for (var i = 0; i < v.multiValue.length; i++) parts.push(key + (v.multiValue[i].value ? '=' + v.multiValue[i].value : ''));
    else parts.push(key + (v.value ? '=' + v.value : ''));
  }
  return parts.length ? '?' + parts.join('&') : '';
}
function handler(event) {
  var request = event.request;
  var answer = routing.resolve(request.uri, TABLE);
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
export async function viewerResponseFunction(root: string, table: RoutingTable): Promise<string> {
  return `${await routingScript(root, table)}function handler(event) {
  var request = event.request;
  var response = event.response;
  if (response.statusCode !== 200) return response;
  var marked = request.headers['x-site-status'];
  var answer = routing.resolve(request.uri, TABLE);
  var status = marked ? Number(marked.value) : answer.kind === 'file' ? answer.status : 200;
  if (status !== 200) {
    response.statusCode = status;
    response.statusDescription = status === 404 ? 'Not Found' : 'Error';
  }
  return response;
}
`;
}

/**
 * A warning for each function (by its name in `dir`) at or over CloudFront's limit, saying what it
 * means: the infrastructure refuses to deploy it (infra/lib/build-outputs.ts). Both functions carry
 * the routing table, every page's URL in it, so a blog outgrows them at some 100–150 articles (each
 * adds its URL, and every few a list page); said at build time, not first at the deploy.
 */
export function oversizeWarnings(dir: string, functions: Record<string, string>, pages: number): string[] {
  return Object.entries(functions).flatMap(([name, code]) => {
    const bytes = Buffer.byteLength(code);
    if (bytes < FUNCTION_SIZE_LIMIT) return [];
    return [`warning: ${path.join(dir, name)} is ${(bytes / 1024).toFixed(1)} KB, and CloudFront Functions must be under ${FUNCTION_SIZE_LIMIT / 1024} KB: the infrastructure (infra/) will not deploy this build. The routing functions hold the URL of every page (${pages} in this build); see docs/owners.md, "When something goes wrong".`];
  });
}
