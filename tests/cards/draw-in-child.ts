/** Run by engine.test.ts in a process of its own: draws the named real cards into a folder, as the build would on this platform. */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { drawCard } from '../../src/cards/draw.tsx';
import { cardEngine } from '../../src/cards/engine.ts';
import { realCards } from './golden-cards.ts';

const [out, ...names] = process.argv.slice(2);
for (const { job, name } of (await realCards()).filter((c) => names.includes(c.name))) await writeFile(path.join(out!, name), await drawCard(job));
console.log(`engine ${(await cardEngine()).name}`);
