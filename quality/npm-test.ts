/**
 * `npm test`: the type-check, the folder layering, the unit tests, the browser tests and every
 * quality gate, laid out so that the two cores stay busy and the site is built once for the browser
 * tests and the gates both.
 *
 *   type-check, layering, unit tests ───────────────────────────────┐
 *   gates: build ─┬→ html, vnu, links, browser sweep, photo hero ───┼→ Lighthouse, alone
 *                 └→ browser tests (on the gates' build) ───────────┘
 *
 * Apart, each step leaves a core idle much of the time, waiting on child processes, servers,
 * Chromium and the disk: the unit tests' 383 CPU seconds took about 370 s of a clean clone's CI
 * run, the browser tests' 115 about 310 s (28 November 2026). None of them, nor any gate but
 * Lighthouse, measures time, so they run side by side; Lighthouse waits until every other step has
 * ended, as it does in `npm run check`.
 *
 * The output comes in the steps' order, as if they ran one after another: the first unfinished
 * step's lines go straight out, the others' are held until its turn. Every step runs to its end
 * whatever another did; the exit code is 1 when any failed, and the last line gives each step's time.
 */
import { spawn } from 'node:child_process';
import { inTurn, type Channel } from './in-turn.ts';
import { GATES, runCheck } from './run-check.ts';

interface Step { name: string; ok: boolean; seconds: number }

const started = Date.now();
const since = (t: number) => (Date.now() - t) / 1000;

// The gates run in this process under NODE_ENV=production (as `npm run check` does); the test
// steps get the environment `npm test` was given.
const { NODE_ENV: _production, ...testEnv } = process.env;

/** `npm run <script>`, its output and errors into its channel. */
function npmRun(script: string, channel: Channel, env: NodeJS.ProcessEnv = {}): Promise<Step> {
  const t = Date.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...testEnv, ...env } });
    child.stdout.setEncoding('utf8').on('data', channel.write);
    child.stderr.setEncoding('utf8').on('data', channel.write);
    const done = (ok: boolean) => { channel.end(); resolve({ name: script, ok, seconds: since(t) }); };
    child.on('error', (error) => { channel.write(`${script} could not start: ${error.message}\n`); done(false); });
    child.on('close', (code) => done(code === 0));
  });
}

const [typecheck, layers, unit, e2e, gates] = inTurn(5, (text) => process.stdout.write(text)) as [Channel, Channel, Channel, Channel, Channel];

let lend!: (dir: string | undefined) => void;
const lent = new Promise<string | undefined>((resolve) => { lend = resolve; });
let giveBack!: () => void;
const back = new Promise<void>((resolve) => { giveBack = resolve; });

const checkStarted = Date.now();
const check = runCheck({ root: process.cwd(), gates: new Set(GATES), out: (line) => gates.write(`${line}\n`), lend: { built: lend, back } }).then(
  ({ ok }) => ok,
  (error: unknown) => { lend(undefined); gates.write(`check could not run: ${error instanceof Error ? error.stack : String(error)}\n`); return false; },
).then((ok): Step => { gates.end(); return { name: 'check', ok, seconds: since(checkStarted) }; });

const steps = await Promise.all([
  npmRun('typecheck', typecheck),
  npmRun('check:layers', layers),
  npmRun('test:unit', unit),
  lent.then((dir) => npmRun('test:e2e', e2e, dir ? { SITE_E2E_DIST: dir } : {})),
]);
giveBack();
steps.push(await check);

console.log(`\nnpm test: ${steps.map((s) => `${s.name} ${s.ok ? 'passed' : 'FAILED'} in ${Math.round(s.seconds)} s`).join('; ')}; ${Math.round(since(started))} s in all`);
process.exit(steps.every((s) => s.ok) ? 0 : 1);
