import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { pageFile } from '../../src/url-resolution/resolve.ts';
import { deployDirFor } from '../../src/output/layout.ts';

/**
 * A small built site, broken on purpose one way per page, with the routing table and the headers
 * file beside it as the build writes them. The home page is clean: no gate may flag it.
 */
export const BROKEN_PAGES = {
  '/missing-alt': '<img src="/assets/dot.png" width="8" height="8">',
  '/bad-nesting': '<p>A paragraph cannot hold <div>a block</div></p>',
  '/broken-link': '<p><a href="/no-such-page">A page that is not there</a></p>',
  '/big-script': '<p>This page runs far more script than its budget before anyone touches it.</p>',
  '/faint': '<section class="faint"><h2>Pale on pale</h2><p>Text that is too faint over its gradient.</p></section>',
  '/inline-script': '<p>An inline script the policy has no hash for.</p><script>document.title = "changed";</script>',
  '/wide-image': '<img class="thumb" src="/assets/wide.png" alt="A wide test image" width="1600" height="16">',
  // Valid to html-validate, not to the Nu Html Checker: `sizes` means nothing without `srcset`.
  '/sizes-without-srcset': '<img src="/assets/dot.png" alt="A small grey square" width="8" height="8" sizes="50vw">',
  '/heavy-image': '<img src="/assets/heavy.png" alt="A heavy test image" width="300" height="300">',
} as const;

export type BrokenPage = keyof typeof BROKEN_PAGES;

/** A solid-colour PNG, so the browser has a real raster file with a known width; with `noise`, random pixels that do not compress. */
function png(width: number, height: number, noise = false): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0); header.writeUInt32BE(height, 4);
  header[8] = 8; header[9] = 2; // 8-bit RGB
  const row = () => Buffer.concat([Buffer.from([0]), noise ? randomBytes(width * 3) : Buffer.alloc(width * 3, 0x40)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, row)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

function page(title: string, body: string, head = ''): string {
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<meta name="description" content="A page of the quality gates' test site.">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/site.css">
${head}
</head>
<body>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>
`;
}

const CSS = `body { font-family: sans-serif; color: #1a1a1a; background: #fff; margin: 0 auto; max-width: 40rem; padding: 1rem; line-height: 1.5; }
a { color: #0645ad; }
.faint { background: linear-gradient(#ffffff, #eeeeee); color: #b5b5b5; padding: 1rem; }
.thumb { width: 100px; height: auto; }
.banner { background: linear-gradient(#102a43, #0b1f33); padding: 2rem; }
.go { position: relative; display: inline-block; background: linear-gradient(#ffd54f, #ffca28); color: #102a43; padding: 0.5rem 1rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
`;

export const STRICT_HEADERS: Record<string, string> = {
  'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
  'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=()',
};

/** Writes the site into a fresh temporary folder; returns its dist/ (.site/deploy/ is beside it). */
export async function writeBrokenSite(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), 'quality-broken-'));
  const dist = path.join(root, 'dist');
  const write = async (file: string, contents: string | Buffer) => {
    await mkdir(path.dirname(path.join(dist, file)), { recursive: true });
    await writeFile(path.join(dist, file), contents);
  };
  const links = Object.keys(BROKEN_PAGES).map((url) => `<li><a href="${url}">${url.slice(1)}</a></li>`).join('');
  // Clean, though text is clipped out of sight for screen readers inside a button over a gradient.
  const banner = '<p class="banner"><a class="go" href="/broken-link">Start here<span class="visually-hidden"> (a page of this site)</span></a></p>';
  await write('index.html', page('Quality gates test site', `<p>Every other page is broken in one way.</p>${banner}<ul>${links}</ul>`));
  await write('404.html', page('Page not found', '<p><a href="/">Return to Home</a></p>'));
  for (const [url, body] of Object.entries(BROKEN_PAGES)) {
    const head = url === '/big-script' ? '<script type="module" src="/assets/big.js"></script>'
      : url === '/sizes-without-srcset' ? '<link rel="preload" as="image" href="/assets/dot.png" imagesizes="50vw">' : '';
    await write(pageFile(url).slice(1), page(url.slice(1).replace('-', ' '), `${body}\n<p><a href="/">Home</a></p>`, head));
  }
  await write('assets/site.css', CSS);
  await write('assets/dot.png', png(8, 8));
  await write('assets/wide.png', png(1600, 16));
  // About 264 KB: over the 200 KB of images budgets.json allows a page before interaction.
  await write('assets/heavy.png', png(300, 300, true));
  // Random bytes do not compress: about 40 KB gzip of script, run at once.
  await write('assets/big.js', `/* ${randomBytes(40_000).toString('base64')} */\ndocument.documentElement.dataset.big = "ran";\n`);
  const deploy = deployDirFor(dist);
  await mkdir(deploy, { recursive: true });
  await writeFile(path.join(deploy, 'routing.json'), JSON.stringify({ pageUrls: ['/', ...Object.keys(BROKEN_PAGES)], redirects: {}, fallbacks: [], notFound: '/404.html' }));
  await writeFile(path.join(deploy, 'headers.json'), JSON.stringify(STRICT_HEADERS));
  return dist;
}
