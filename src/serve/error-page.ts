import { LIVE_RELOAD_TAG } from './live-reload.ts';

import { escapeMarkup as esc } from '../render/escape.ts';

/** What `site serve` shows instead of the site while the content or templates are broken. */
export function buildErrorPage(lines: string[]): string {
  return `<!doctype html>
<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Build error</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#fef2f2;color:#450a0a}main{max-width:60rem;margin:2rem auto;padding:0 1.25rem}
h1{font-size:1.6rem}pre{white-space:pre-wrap;background:#fff;border:1px solid #fecaca;border-radius:.5rem;padding:1rem;font-size:.9rem}</style>
${LIVE_RELOAD_TAG}
</head><body><main>
<h1>The site could not be built</h1>
<p>Fix the problem below and save: this page reloads by itself once the build succeeds.</p>
<pre>${esc(lines.join('\n'))}</pre>
</main></body></html>
`;
}
