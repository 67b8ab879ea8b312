/**
 * `npm test`: the type-check, the folder layering, the unit tests, the browser tests and every
 * quality gate, laid out so that the two cores stay busy and the site is built once for the browser
 * tests and the gates both.
 *
 *   type-check, layering ─┐
 *   unit tests ───────────┴→ browser tests (on the gates' build) ─┐
 *   gates: build → html, vnu, links, browser sweep, photo hero ───┴→ Lighthouse, alone
 *
 * Most of the unit tests wait on child processes, servers and the disk, and none of the gates but
 * Lighthouse measures time, so those run side by side; Lighthouse waits until every other step has
 * ended, as it does in `npm run check`. The gates' tables are held back until the tests are done,
 * then printed as each gate ends. Every step runs to its end whatever another step did; the exit
 * code is 1 when any failed, and the last lines give each step's time.
 */
import { spawn } from 'node:child_process';
import { GATES, runCheck } from './run-check.ts';

interface Step { name: string; ok: boolean; seconds: number }

const started = Date.now();
const since = (t: number) => (Date.now() - t) / 1000;

// The gates run in this process under NODE_ENV=production (as `npm run check` does); the test
// steps get the environment `npm test` was given.
const { NODE_ENV: _production, ...testEnv } = process.env;

/** `npm run <script>`, its output straight through. */
function npmRun(script: string, env: NodeJS.ProcessEnv = {}): Promise<Step> {
  const t = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: 'inherit', env: { ...testEnv, ...env } });
    child.on('error', (error) => { console.error(`${script} could not start: ${error.message}`); resolve({ name: script, ok: false, seconds: since(t) }); });
    child.on('close', (code) => resolve({ name: script, ok: code === 0, seconds: since(t) }));
  });
}

let lend!: (dir: string | undefined) => void;
const lent = new Promise<string | undefined>((resolve) => { lend = resolve; });
let giveBack!: () => void;
const back = new Promise<void>((resolve) => { giveBack = resolve; });

const held: string[] = [];
let holding = true;
const out = (line: string) => { if (holding) held.push(line); else console.log(line); };

const checkStarted = Date.now();
const check = runCheck({ root: process.cwd(), gates: new Set(GATES), out, lend: { built: lend, back } }).then(
  ({ ok }) => ok,
  (error: unknown) => { lend(undefined); out(`check could not run: ${error instanceof Error ? error.stack : String(error)}`); return false; },
).then((ok): Step => ({ name: 'check', ok, seconds: since(checkStarted) }));

const tests = (async () => {
  const first = await Promise.all([npmRun('typecheck'), npmRun('check:layers'), npmRun('test:unit')]);
  const dir = await lent;
  return [...first, await npmRun('test:e2e', dir ? { SITE_E2E_DIST: dir } : {})];
})();

const steps = await tests;
giveBack();
holding = false;
for (const line of held.splice(0)) console.log(line);
steps.push(await check);

console.log(`\nnpm test: ${steps.map((s) => `${s.name} ${s.ok ? 'passed' : 'FAILED'} in ${Math.round(s.seconds)} s`).join('; ')}; ${Math.round(since(started))} s in all`);
process.exit(steps.every((s) => s.ok) ? 0 : 1);
