import { createHash } from 'node:crypto';
import type { SiteSettings } from './content/schemas.ts';

export const HEADERS_FILE = 'headers.json';

const hash = (script: string) => `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;
const origin = (url: string) => new URL(url).origin;

/**
 * The security headers of every answer, in one place: the build writes them beside dist/, and
 * both `site serve` and the CDN's response-headers policy send exactly these. The inline scripts
 * are allowed by hash, never by 'unsafe-inline'; third-party hosts only when configured.
 */
export function securityHeaders(settings: SiteSettings, inlineScripts: string[]) {
  const scripts = ["'self'", ...inlineScripts.map(hash)];
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
