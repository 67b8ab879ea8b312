import path from 'node:path';
import { build } from 'esbuild';
import type { RoutingTable } from './routing.ts';

/** CloudFront Functions allow 10 KB of code. */
export const FUNCTION_SIZE_LIMIT = 10 * 1024;

/**
 * The CloudFront viewer-request function: src/routing.ts itself, bundled for CloudFront's
 * JavaScript runtime 2.0 (no modules), with the build's routing table inlined. A page answered
 * with a non-200 status is marked for the viewer-response function, which sets that status.
 */
export async function viewerRequestFunction(root: string, table: RoutingTable): Promise<string> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [path.join(root, 'src/routing.ts')],
    bundle: true, write: false, format: 'iife', globalName: 'routing', target: 'es2019', minify: true, logLevel: 'silent',
  });
  const lib = result.outputFiles[0]!.text.trim();
  return `${lib}
var TABLE = ${JSON.stringify(table)};
function query(qs) {
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

/** The viewer-response function: gives the status that routing decided to pages S3 answers with 200. */
export function viewerResponseFunction(): string {
  return `function handler(event) {
  var marked = event.request.headers['x-site-status'];
  var response = event.response;
  if (marked && response.statusCode === 200) {
    response.statusCode = Number(marked.value);
    response.statusDescription = marked.value === '404' ? 'Not Found' : 'Error';
  }
  return response;
}
`;
}
