/** Screenshots of served pages at phone and desktop widths: `npx tsx scripts/screenshot.ts http://127.0.0.1:4321 / /about`. */
import { GUARD_MS, launchChromium, VIEWPORTS } from '../quality/browser.ts';
import { watchNetwork } from '../quality/quiet-network.ts';

const [base, ...paths] = process.argv.slice(2);
if (!base || !paths.length) { console.error('usage: tsx scripts/screenshot.ts BASE_URL PATH...'); process.exit(2); }
const browser = await launchChromium();
for (const viewport of VIEWPORTS) {
  const { width } = viewport;
  const page = await browser.newPage({ viewport });
  const network = watchNetwork(page);
  for (const p of paths) {
    await page.goto(base + p, { waitUntil: 'load' });
    await network.quiet(GUARD_MS);
    const file = `/tmp/shot-${p.replace(/[^a-z0-9]+/gi, '_') || 'home'}-${width}.png`;
    await page.screenshot({ path: file, fullPage: process.env.FULL !== '0' });
    console.log(file);
  }
  await page.close();
}
await browser.close();
