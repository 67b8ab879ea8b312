// /admin's own page: no index, no site chrome, the CMS's bundle alone.

export const ADMIN_PATH = '/admin';
/** The paths the CMS answers at, as CloudFront's path patterns: its page, bundle and config, and serve's local backend. */
export const CMS_PATHS = ['/admin', '/admin/*'];
export const CMS_SCRIPT = '/admin/cms.js';
export const CMS_CONFIG = '/admin/config.json';
/** Where `site serve` answers Decap's local backend protocol. */
export const CMS_LOCAL_API = '/admin/api/v1';
/**
 * The query parameter carrying the token `site serve` puts in the /admin page it gives out (a meta
 * element of this name), without which its local API takes no request.
 */
export const CMS_TOKEN_PARAM = 'token';
export const CMS_TOKEN_META = 'site-cms-token';

/** The pages the content manager adds to the routing table: /admin, when the settings name its repository. */
export const cmsPages = (settings: { cms?: unknown }): string[] => (settings.cms ? [ADMIN_PATH] : []);

/** The host names the routing tells apart when the content manager has one of its own (settings' cms.host): the site's, and the manager's. */
export const cmsHosts = (settings: { url: string; cms?: { host?: string } }): { site: string; cms: string } | undefined =>
  (settings.cms?.host ? { site: new URL(settings.url).hostname, cms: settings.cms.host } : undefined);

/** `site serve`'s name for the bundle: its content's hash in it, so that a browser keeps it until it changes. */
export const hashedScript = (hash: string) => `${ADMIN_PATH}/cms.${hash}.js`;
export const HASHED_SCRIPT = /^\/admin\/cms\.([0-9a-f]{16})\.js$/;

/** The page; `token`: `site serve`'s, for its local API (the built site's page has none); `script`: the bundle's address. */
export function adminPage(siteName: string, token?: string, script = CMS_SCRIPT): string {
  const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const name = escape(siteName);
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>Content manager | ${name}</title>
${token ? `<meta name="${CMS_TOKEN_META}" content="${escape(token)}">\n` : ''}<script type="module" src="${script}"></script>
</head>
<body>
<noscript>The content manager needs JavaScript.</noscript>
</body>
</html>
`;
}

/**
 * /admin's headers: its own policy, as strict as Decap CMS allows. Decap compiles its config's
 * schema with ajv (new Function: 'unsafe-eval'), styles itself with emotion (inline style elements:
 * 'unsafe-inline' styles), shows uploads and previews as blob: URLs, and signs in to GitHub through
 * the OAuth handler's window and GitHub's API. Nothing else loads from anywhere but the site.
 */
export function cmsHeaders(base: Record<string, string>, allow: { authOrigin?: string } = {}): Record<string, string> {
  // blob:: Decap reads an image being uploaded, and the backup of unsaved work, through blob: URLs.
  const connect = ["'self'", 'blob:', 'https://api.github.com', ...(allow.authOrigin ? [allow.authOrigin] : [])];
  const csp = [
    "default-src 'self'",
    "script-src 'self' 'unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https://avatars.githubusercontent.com https://raw.githubusercontent.com",
    "font-src 'self' data:",
    `connect-src ${connect.join(' ')}`,
    "frame-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "manifest-src 'self'",
  ].join('; ');
  return { ...base, 'content-security-policy': csp, 'x-robots-tag': 'noindex, nofollow', 'cross-origin-opener-policy': 'same-origin-allow-popups' };
}
