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
 * A failed test step's failures are printed again just above it: a CI log kept only by its end
 * still says which test failed.
 */
import { spawn } from 'node:child_process';
import { inTurn, type Channel } from './in-turn.ts';
import { GATES, runCheck } from './run-check.ts';

interface Step { name: string; ok: boolean; seconds: number; failures?: string }

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
    let printed = '';
    const write = (text: string) => { channel.write(text); printed = (printed + text).slice(-FAILURES_KEPT); };
    child.stdout.setEncoding('utf8').on('data', write);
    child.stderr.setEncoding('utf8').on('data', write);
    const done = (ok: boolean) => { channel.end(); resolve({ name: script, ok, seconds: since(t), ...(ok ? {} : { failures: failuresOf(printed) }) }); };
    child.on('error', (error) => { channel.write(`${script} could not start: ${error.message}\n`); done(false); });
    child.on('close', (code) => done(code === 0));
  });
}

/** How much of a step's output is kept for its failures: vitest's summary of them comes last. */
const FAILURES_KEPT = 60_000;

/** vitest's 'Failed Tests' section when it printed one (colours dropped), else the step's last lines. */
function failuresOf(printed: string): string {
  const plain = printed.replace(/\x1b\[[0-9;]*m/g, '');
  const at = plain.lastIndexOf('Failed Tests');
  const lines = (at >= 0 ? plain.slice(plain.lastIndexOf('\n', at) + 1) : plain).split('\n');
  return (at >= 0 ? lines.slice(0, 200) : lines.slice(-60)).join('\n');
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

for (const s of steps) if (s.failures) console.log(`\n── ${s.name} FAILED: its failures again ──\n${s.failures}`);
console.log(`\nnpm test: ${steps.map((s) => `${s.name} ${s.ok ? 'passed' : 'FAILED'} in ${Math.round(s.seconds)} s`).join('; ')}; ${Math.round(since(started))} s in all`);
process.exit(steps.every((s) => s.ok) ? 0 : 1);
