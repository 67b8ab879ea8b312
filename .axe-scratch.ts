import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import { startServer } from './src/serve/server.ts';
const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const server = await startServer({ root: process.cwd(), outDir: '/tmp/q6/dist', port: 0, host: '127.0.0.1', watch: false, prebuilt: true });
const table = JSON.parse(readFileSync('/tmp/q6/build/routing.json', 'utf8'));
const urls: string[] = [...table.pages, '/no-such-page', '/case-studies/no-such-study'];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const t0 = Date.now();
const jobs = urls.flatMap((u) => [{ u, w: 375, h: 667 }, { u, w: 1366, h: 768 }]);
let i = 0;
async function worker() {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  page.on('console', (m) => { if (m.type() === 'error') console.log('console error', page.url(), m.text()); });
  await page.addInitScript(() => { document.addEventListener('securitypolicyviolation', (e) => console.error('CSP', e.violatedDirective, e.blockedURI)); });
  while (i < jobs.length) {
    const j = jobs[i++]!;
    await page.setViewportSize({ width: j.w, height: j.h });
    const t = Date.now();
    await page.goto(server.url + j.u, { waitUntil: 'load' });
    await page.evaluate(axeSource);
    const res = await page.evaluate(() => (window as any).axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] }, resultTypes: ['violations'] }));
    console.log(j.u, j.w, Date.now() - t, 'ms', res.violations.map((v: any) => `${v.id}(${v.nodes.length}) ${v.nodes[0].target}`).join('; '));
  }
  await ctx.close();
}
await Promise.all([worker(), worker(), worker()]);
console.log('total', Date.now() - t0);
await browser.close(); await server.close();
