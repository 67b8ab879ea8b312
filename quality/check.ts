/**
 * `npm run check`: every quality gate (see run-check.ts), exit 1 when any fails, 2 on bad usage.
 *
 *   npm run check                      all gates
 *   npm run check -- --skip lighthouse all but Lighthouse
 *   npm run check -- --only html,links just those
 */
import { parseArgs } from 'node:util';
import { GATES, runCheck, type Gate } from './run-check.ts';

function parseGates(argv: string[]): Set<Gate> {
  const { values } = parseArgs({ args: argv, options: { only: { type: 'string' }, skip: { type: 'string' } } });
  const list = (s: string | undefined) => (s ?? '').split(',').map((g) => g.trim()).filter(Boolean);
  for (const g of [...list(values.only), ...list(values.skip)]) {
    if (!(GATES as readonly string[]).includes(g)) throw new Error(`unknown gate "${g}"; the gates are ${GATES.join(', ')}`);
  }
  const only = list(values.only);
  const skip = new Set(list(values.skip));
  return new Set(GATES.filter((g) => (only.length ? only.includes(g) : true) && !skip.has(g)));
}

let gates: Set<Gate>;
try { gates = parseGates(process.argv.slice(2)); } catch (error) { console.error((error as Error).message); process.exit(2); }
runCheck({ root: process.cwd(), gates, out: (line) => console.log(line) }).then(
  ({ ok }) => process.exit(ok ? 0 : 1),
  (error: unknown) => { console.error(`check could not run: ${error instanceof Error ? error.stack : String(error)}`); process.exit(1); },
);
