// The Content-Type each file is stored with. S3 sends back whatever it was given, so a wrong or
// missing type here is what visitors get (a stylesheet as binary/octet-stream is ignored).
import path from 'node:path';

const BY_EXTENSION: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.pdf': 'application/pdf',
  '.wasm': 'application/wasm',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.mp3': 'audio/mpeg',
};

export const FALLBACK_CONTENT_TYPE = 'application/octet-stream';

/**
 * The type by extension; an XML file is refined by its root element, so that the blog's feed is
 * served as a feed (application/atom+xml) and the sitemap as plain XML.
 */
export function contentType(key: string, head?: Uint8Array): string {
  const ext = path.posix.extname(key).toLowerCase();
  if (ext === '.xml' && head) {
    const start = Buffer.from(head.subarray(0, 512)).toString('utf8');
    if (/<feed[\s>]/.test(start)) return 'application/atom+xml; charset=utf-8';
    if (/<rss[\s>]/.test(start)) return 'application/rss+xml; charset=utf-8';
  }
  return BY_EXTENSION[ext] ?? FALLBACK_CONTENT_TYPE;
}
