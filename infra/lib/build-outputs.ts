// What the infrastructure takes from the build: the CloudFront Functions and the security headers
// that `site build` writes to .site/deploy/, and the Lambda bundle that lambda/bundle-lambda.ts writes to
// .site/deploy/lambda/. Reading them here, rather than regenerating them, keeps one source for each:
// what `site serve` ran and the tests checked is exactly what is deployed.
import { CMS_AUTH_DIR } from '../../src/output/layout.ts';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseHeadersFile, type HeadersFile } from '../../src/response-headers.ts';

/** CloudFront Functions allow 10 KB of code. */
import { FUNCTION_SIZE_LIMIT } from '../../src/url-resolution/cloudfront-functions.ts';

export interface BuildOutputs {
  viewerRequestPath: string;
  viewerResponsePath: string;
  /** Header name (lower case) → value, exactly as `site serve` sends them: every answer's, and the paths that have their own. */
  headers: HeadersFile;
  /** Folder holding index.mjs, the Lambda's handler module. */
  lambdaDir: string;
  /** Folder holding index.mjs, the content manager's sign-in handler. */
  cmsAuthDir: string;
  /** The site's host and the content manager's, when content/site.yaml gives it one (cms.host): the routing table's `hosts`. */
  hosts?: { site: string; cms: string };
}

export class BuildOutputsError extends Error {
  constructor(problems: readonly string[]) {
    super(`The build outputs the infrastructure needs are missing or unusable:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'BuildOutputsError';
  }
}

export function readBuildOutputs(deployDir: string): BuildOutputs {
  const problems: string[] = [];
  const file = (relative: string, how: string): string => {
    const full = path.join(deployDir, relative);
    if (!existsSync(full)) problems.push(`${full} does not exist: run ${how} first`);
    return full;
  };
  const siteBuild = '`npx site build --site-url https://<your domain>`';
  const viewerRequestPath = file('cloudfront/viewer-request.js', siteBuild);
  const viewerResponsePath = file('cloudfront/viewer-response.js', siteBuild);
  const headersPath = file('headers.json', siteBuild);
  const lambdaDir = path.join(deployDir, 'lambda');
  file('lambda/index.mjs', '`npm run build:lambda`');
  const cmsAuthDir = path.join(deployDir, CMS_AUTH_DIR);
  file(`${CMS_AUTH_DIR}/index.mjs`, '`npm run build:lambda`');

  for (const fn of [viewerRequestPath, viewerResponsePath]) {
    if (existsSync(fn) && statSync(fn).size >= FUNCTION_SIZE_LIMIT) {
      problems.push(`${fn} is ${statSync(fn).size} bytes: CloudFront Functions must be under ${FUNCTION_SIZE_LIMIT} bytes`);
    }
  }

  let headers: HeadersFile = { default: {}, paths: [] };
  const lowerCased = (set: unknown): Record<string, string> => {
    if (!set || typeof set !== 'object' || Object.values(set).some((v) => typeof v !== 'string')) throw new Error('a set of headers is not an object of strings');
    return Object.fromEntries(Object.entries(set as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
  };
  if (existsSync(headersPath)) {
    try {
      const parsed = parseHeadersFile(readFileSync(headersPath, 'utf8'));
      headers = {
        default: lowerCased(parsed.default),
        paths: parsed.paths.map((entry) => {
          if (!Array.isArray(entry.patterns) || !entry.patterns.every((p) => typeof p === 'string' && p.startsWith('/'))) throw new Error('a path entry\'s patterns are not a list of paths');
          return { ...entry, headers: lowerCased(entry.headers) };
        }),
      };
    } catch (error) {
      problems.push(`${headersPath} is not the headers file site build writes (${error instanceof Error ? error.message : String(error)})`);
    }
  }

  // The routing table names the content manager's own host, which the distribution must answer to.
  let hosts: BuildOutputs['hosts'];
  const routingPath = file('routing.json', siteBuild);
  if (existsSync(routingPath)) {
    try {
      const table = JSON.parse(readFileSync(routingPath, 'utf8')) as { hosts?: { site?: unknown; cms?: unknown } };
      if (table.hosts !== undefined) {
        if (typeof table.hosts?.site !== 'string' || typeof table.hosts.cms !== 'string') throw new Error('its hosts are not a site and a cms host name');
        hosts = { site: table.hosts.site, cms: table.hosts.cms };
      }
    } catch (error) {
      problems.push(`${routingPath} is not the routing table site build writes (${error instanceof Error ? error.message : String(error)})`);
    }
  }

  if (problems.length > 0) throw new BuildOutputsError(problems);
  return { viewerRequestPath, viewerResponsePath, headers, lambdaDir, cmsAuthDir, ...(hosts ? { hosts } : {}) };
}
