import { startServer } from './src/serve/server.ts';
import { launchChromium, newContext, listen } from './quality/browser.ts';
import { runAxe } from './quality/axe.ts';
import { pixelContrast } from './quality/contrast.ts';
const server = await startServer({ root: process.cwd(), outDir: '/tmp/q6/dist', port: 0, host: '127.0.0.1', watch: false, prebuilt: true });
const browser = await launchChromium();
for (const u of ['/', '/about', '/blog/what-is-data', '/services/data-cleaning']) {
  const t: number[] = [Date.now()];
  const ctx = await newContext(browser, { width: 1366, height: 768 }, { cookieConsent: '{"necessary":true,"analytics":false,"marketing":false,"version":1}' });
  const page = await ctx.newPage(); const n = listen(page); t.push(Date.now());
  await page.goto(server.url + u, { waitUntil: 'load' }); t.push(Date.now());
  await page.evaluate(() => new Promise<void>((done) => requestIdleCallback(() => done(), { timeout: 2000 }))); t.push(Date.now());
  await page.waitForLoadState('networkidle'); t.push(Date.now());
  const a = await runAxe(page); t.push(Date.now());
  await pixelContrast(page, a.incomplete); t.push(Date.now());
  await n(); await ctx.close(); t.push(Date.now());
  console.log(u, t.slice(1).map((x, i) => x - t[i]!).join(' '));
}
await browser.close(); await server.close();
