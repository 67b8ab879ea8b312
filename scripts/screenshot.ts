/** Screenshots of served pages at phone and desktop widths: `npx tsx scripts/screenshot.ts http://127.0.0.1:4321 / /about`. */
import { chromium } from 'playwright-core';
import { watchNetwork } from '../quality/quiet-network.ts';

const [base, ...paths] = process.argv.slice(2);
if (!base || !paths.length) { console.error('usage: tsx scripts/screenshot.ts BASE_URL PATH...'); process.exit(2); }
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
for (const width of [375, 1366]) {
  const page = await browser.newPage({ viewport: { width, height: width === 375 ? 667 : 768 } });
  const network = watchNetwork(page);
  for (const p of paths) {
    await page.goto(base + p, { waitUntil: 'load' });
    await network.quiet(60_000);
    const file = `/tmp/shot-${p.replace(/[^a-z0-9]+/gi, '_') || 'home'}-${width}.png`;
    await page.screenshot({ path: file, fullPage: process.env.FULL !== '0' });
    console.log(file);
  }
  await page.close();
}
await browser.close();
