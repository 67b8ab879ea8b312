import { createHash } from 'node:crypto';
import type { SiteSettings } from './content/schemas.ts';
import { CMS_PATHS, cmsHeaders } from './cms/admin-page.ts';

export const HEADERS_FILE = 'headers.json';

export type HeaderSet = Record<string, string>;

/**
 * .site/deploy/headers.json: the headers of every answer (`default`), and the few paths that need
 * something more (`paths`, first match wins), each with its own full set. The patterns are
 * CloudFront's cache-behaviour path patterns (`*` any characters, `?` one), so the CDN gives each
 * its own behaviour and response-headers policy, and `site serve` matches them the same way.
 */
export interface HeadersFile {
  default: HeaderSet;
  paths: Array<{ patterns: string[]; why: string; headers: HeaderSet }>;
}

/**
 * What the search page needs more: pagefind compiles its WebAssembly on the page and in its worker
 * (a worker's script answers with its own policy), which CSP allows only with 'wasm-unsafe-eval'. It
 * allows compiling WebAssembly and nothing else: no eval, no inline script. Only these paths get it.
 */
export const SEARCH_PATHS = ['/search', '/search/*', '/pagefind/*'];

const pattern = (glob: string) => new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);

/** The headers an answer at `pathname` carries. */
export function headersFor(file: HeadersFile, pathname: string): HeaderSet {
  return file.paths.find((entry) => entry.patterns.some((p) => pattern(p).test(pathname)))?.headers ?? file.default;
}

/** .site/deploy/headers.json as read; a file of an older build (one flat set of headers) is taken as the default for every path. */
export function parseHeadersFile(text: string): HeadersFile {
  const value = JSON.parse(text) as Partial<HeadersFile> | HeaderSet;
  if (value && typeof value.default === 'object' && Array.isArray(value.paths)) return value as HeadersFile;
  return { default: value as HeaderSet, paths: [] };
}

/** The build's headers file: every answer's, the search paths' (when the site has search), and the content manager's (when it has one). */
export function headersFile(settings: SiteSettings, inlineScripts: string[]): HeadersFile {
  const site = securityHeaders(settings, inlineScripts);
  const paths: HeadersFile['paths'] = [];
  if (settings.search) {
    paths.push({ patterns: SEARCH_PATHS, why: "pagefind's WebAssembly: 'wasm-unsafe-eval' in script-src", headers: securityHeaders(settings, inlineScripts, { wasm: true }) });
  }
  if (settings.cms) {
    const why = "Decap CMS: 'unsafe-eval' (ajv), inline styles (emotion), GitHub's API and the sign-in handler; noindex";
    paths.push({ patterns: CMS_PATHS, why, headers: cmsHeaders(site, { authOrigin: new URL(settings.cms.authUrl).origin }) });
  }
  return { default: site, paths };
}

const hash = (script: string) => `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
const origin = (url: string) => new URL(url).origin;

/**
 * The security headers of every answer, in one place: the build writes them beside dist/, and
 * both `site serve` and the CDN's response-headers policy send exactly these. The inline scripts
 * are allowed by hash, never by 'unsafe-inline'; third-party hosts only when configured.
 */
export function securityHeaders(settings: SiteSettings, inlineScripts: string[], allow: { wasm?: boolean } = {}) {
  const scripts = ["'self'", ...(allow.wasm ? ["'wasm-unsafe-eval'"] : []), ...inlineScripts.map(hash)];
  const connect = ["'self'"];
  const images = ["'self'", 'data:'];
  const frames: string[] = [];
  const forms = ["'self'"];
  if (settings.tagManagerId) {
    scripts.push('https://www.googletagmanager.com');
    connect.push('https://www.googletagmanager.com', 'https://www.google-analytics.com', 'https://*.google-analytics.com', 'https://*.analytics.google.com');
    images.push('https://www.googletagmanager.com', 'https://www.google-analytics.com');
    frames.push('https://www.googletagmanager.com');
  }
  if (settings.reviewsWidgetScript) {
    const host = origin(settings.reviewsWidgetScript);
    scripts.push(host);
    connect.push(host);
    images.push(host);
    frames.push(host);
  }
  if (/^https:/.test(settings.formEndpoint)) {
    forms.push(origin(settings.formEndpoint));
    connect.push(origin(settings.formEndpoint));
  }
  const csp = [
    "default-src 'self'",
    `script-src ${scripts.join(' ')}`,
    "style-src 'self'",
    `img-src ${images.join(' ')}`,
    "font-src 'self'",
    `connect-src ${connect.join(' ')}`,
    `frame-src ${frames.length ? frames.join(' ') : "'none'"}`,
    "object-src 'none'",
    "base-uri 'self'",
    `form-action ${forms.join(' ')}`,
    "frame-ancestors 'none'",
    "manifest-src 'self'",
  ].join('; ');
  return {
    'content-security-policy': csp,
    'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'DENY',
    'cross-origin-opener-policy': 'same-origin',
    'permissions-policy': 'accelerometer=(), autoplay=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), midi=(), payment=(), usb=(), browsing-topics=()',
  };
}
