/**
 * `npm test`: the type-check, the folder layering, the unit tests, the browser tests and every
 * quality gate, side by side only as far as the machine has room (cores.ts).
 *
 *   type-check, layering, the gates' build ─→ unit tests ─→ html, vnu, links, browser sweep ┬→ Lighthouse, alone
 *                                                         └→ browser tests (on the gates' build) ┘ (one after the other, as asked)
 *
 * Each step asks for the cores it keeps busy (WEIGHTS: CPU seconds over wall seconds, counting its
 * Chromium, Java, esbuild and test workers); it starts once that fits in the cores that were free
 * when the run began. On two idle cores the unit tests run with two workers, then the gates and the
 * browser tests (with two) one after the other; with one core taken by other work, each step runs
 * alone, with one worker.
 * Lighthouse waits until every other step has ended, as it does in `npm run check`.
 *
 * The output comes in the steps' order, as if they ran one after another: the first unfinished
 * step's lines go straight out, the others' are held until its turn. Lines starting `npm test:`
 * say when each step starts and ends, with the load average and what runs beside it, and at each end
 * the CPU spent so far as `/usr/bin/time` counts it (cores.ts, `cpuSeconds`). Every step
 * runs to its end whatever another did; the exit code is 1 when any failed. A failed test step's
 * failures are printed again at the end, and the last lines give each step's time and the tests
 * counted.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import { Cores, cpuSeconds, measureBudget, type Share } from './cores.ts';
import { inTurn, type Channel } from './in-turn.ts';
import { GATES, runCheck } from './run-check.ts';

interface Step { name: string; ok: boolean; seconds: number; beside: Set<string>; failures?: string; tally?: string; tests?: { passed: number; failed: number } }

/**
 * Cores a step keeps busy, counting its child processes, the test steps' per vitest worker. With
 * the unit tests, the browser tests and the gates all at once, two cores stood at no idle time and
 * 22-30 runnable threads (vmstat, 29 November 2026 at 396f87d), and the browser tests took 897 s
 * against some 300 s beside the unit tests alone: the three are not mostly waiting, so on two cores
 * the unit tests run first. The gates' browser sweep (three pages at a time, axe, screenshots) keeps
 * more than a core busy: beside the browser tests, on two idle cores, the browser tests took 864 s
 * and the sweep 512 s (29 November 2026 at 205fce5), where each alone on the one core stress-ng left
 * took 685 s and 368 s. So the sweep and the browser tests run one after the other.
 */
const WEIGHTS = { typecheck: 1, layers: 0.2, build: 1, unitWorker: 0.8, e2eWorker: 0.5, gates: 1.2 };

const started = Date.now();
const since = (t: number) => (Date.now() - t) / 1000;
const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
/** The CPU spent so far, as `/usr/bin/time` would count it: this process and the processes it has reaped. */
const cpu = async () => {
  const c = await cpuSeconds();
  return c ? `; CPU so far ${Math.round(c.self + c.children)} s (this process ${Math.round(c.self)} s, the ended steps' processes ${Math.round(c.children)} s)` : '';
};

const budget = await measureBudget();
const cores = new Cores(budget.free);
const unitWorkers = Math.min(2, budget.free);
const e2eWorkers = Math.min(2, budget.free);
console.log(`npm test: ${budget.cores} cores, ${budget.busyElsewhere} kept busy by other work (load average ${budget.load.map((l) => l.toFixed(1)).join(' ')}): the steps share ${budget.free}; ${unitWorkers} unit-test and ${e2eWorkers} browser-test workers`);

const running = new Set<Step>();
/** Runs `work` once `weight` cores are free, logging its start and end and what ran beside it. */
async function step(name: string, weight: number, work: (share: Share) => Promise<boolean | Partial<Step>>): Promise<Step> {
  const share = await cores.take(weight);
  const s: Step = { name, ok: false, seconds: 0, beside: new Set() };
  for (const other of running) { other.beside.add(name); s.beside.add(other.name); }
  running.add(s);
  console.log(`npm test: ${name} starts at ${Math.round(since(started))} s${s.beside.size ? `, beside ${[...s.beside].join(', ')}` : ''} (load average ${load()})`);
  const t = Date.now();
  try {
    const result = await work(share);
    Object.assign(s, typeof result === 'boolean' ? { ok: result } : result);
  } catch (error) {
    console.log(`npm test: ${name} could not run: ${error instanceof Error ? error.stack : String(error)}`);
    s.ok = false;
  } finally {
    s.seconds = since(t);
    running.delete(s);
    share.release();
    console.log(`npm test: ${name} ${s.ok ? 'passed' : 'FAILED'} in ${Math.round(s.seconds)} s (load average ${load()}${await cpu()})`);
  }
  return s;
}

// The gates run in this process under NODE_ENV=production (as `npm run check` does); the test
// steps get the environment `npm test` was given.
const { NODE_ENV: _production, ...testEnv } = process.env;

/** `npm run <script> -- <args>`, its output and errors into its channel. */
function npmRun(script: string, args: string[], channel: Channel, env: NodeJS.ProcessEnv = {}): Promise<Partial<Step>> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...testEnv, ...env } });
    let printed = '';
    let counted: Step['tests'];
    const write = (text: string) => {
      channel.write(text);
      printed = (printed + text).slice(-FAILURES_KEPT);
      counted = testsCounted(printed) ?? counted;
    };
    child.stdout.setEncoding('utf8').on('data', write);
    child.stderr.setEncoding('utf8').on('data', write);
    const done = (ok: boolean) => { channel.end(); resolve({ ok, tests: counted, ...(ok ? {} : { failures: failuresOf(printed), tally: tallyOf(printed) }) }); };
    child.on('error', (error) => { channel.write(`${script} could not start: ${error.message}\n`); done(false); });
    child.on('close', (code) => done(code === 0));
  });
}

/** How much of a step's output is kept for its failures: vitest's summary of them comes last. */
const FAILURES_KEPT = 60_000;
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

/**
 * vitest's report of what failed (colours dropped): from the first of its sections (failed suites,
 * whose hooks threw; failed tests; errors outside any test), else the step's last lines.
 */
function failuresOf(printed: string): string {
  const text = plain(printed);
  const found = ['Failed Suites', 'Failed Tests', 'Unhandled Errors'].map((s) => text.lastIndexOf(s)).filter((i) => i >= 0);
  const at = found.length ? Math.min(...found) : -1;
  const lines = (at >= 0 ? text.slice(text.lastIndexOf('\n', at) + 1) : text).split('\n');
  return (at >= 0 ? lines.slice(0, 200) : lines.slice(-60)).join('\n');
}

/** vitest's closing tally (its Test Files, Tests and Errors lines) in one line, when printed. */
function tallyOf(printed: string): string | undefined {
  const text = plain(printed);
  const lines = text.split('\n');
  const start = lines.findLastIndex((l) => /^\s*Test Files\s/.test(l));
  if (start < 0) return undefined;
  const tally = lines.slice(start, start + 4).filter((l) => /^\s*(Test Files|Tests|Errors)\s/.test(l)).map((l) => l.trim().replace(/\s+/g, ' ')).join('; ');
  // The files named where a suite or test failed, or where an error outside the tests came from.
  const files = new Set([...text.matchAll(/(?:FAIL\s+|originated in ")([\w./-]+\.test\.tsx?)/g)].map((m) => m[1]));
  return files.size ? `${tally}; in ${[...files].join(', ')}` : tally;
}

/** vitest's closing count, `Tests  2 failed | 1178 passed (1180)`, when it has printed it. */
function testsCounted(printed: string): Step['tests'] {
  const line = plain(printed).split('\n').reverse().find((l) => /^\s*Tests\s+.*\(\d+\)\s*$/.test(l));
  if (!line) return undefined;
  const n = (word: string) => Number(line.match(new RegExp(`(\\d+) ${word}`))?.[1] ?? 0);
  return { passed: n('passed'), failed: n('failed') };
}

const [typecheck, layers, unit, e2e, gates] = inTurn(5, (text) => process.stdout.write(text)) as [Channel, Channel, Channel, Channel, Channel];

// The gates' build is lent to the browser tests; the gates after it wait for room, in the order
// asked (after the unit tests, which asked first), and Lighthouse for the whole machine.
let lend!: (dir: string | undefined) => void;
const lent = new Promise<string | undefined>((resolve) => { lend = resolve; });

const first = [
  step('typecheck', WEIGHTS.typecheck, () => npmRun('typecheck', [], typecheck)),
  step('check:layers', WEIGHTS.layers, () => npmRun('check:layers', [], layers)),
];
let othersEnded!: () => void;
const othersDone = new Promise<void>((resolve) => { othersEnded = resolve; });
const check = step('check', WEIGHTS.build, async (buildShare) => {
  let gatesShare: Share | undefined;
  let lighthouseShare: Promise<Share> | undefined;
  /** Lighthouse's turn: every other step has ended, and it takes every core. */
  const lighthouseTurn = () => othersDone.then(() => cores.take(budget.free)).then(async (share) => {
    console.log(`npm test: check has all ${budget.free} cores for Lighthouse from ${Math.round(since(started))} s (load average ${load()}${await cpu()})`);
    return share;
  });
  try {
    const { ok } = await runCheck({
      root: process.cwd(), gates: new Set(GATES), out: (line) => gates.write(`${line}\n`),
      lend: {
        built: (dir) => { buildShare.release(); lend(dir); },
        go: async () => { gatesShare = await cores.take(WEIGHTS.gates); },
        gatesDone: () => gatesShare?.release(),
        back: { then: (ok, fail) => (lighthouseShare ??= lighthouseTurn()).then(() => undefined).then(ok, fail) },
      },
    });
    return ok;
  } catch (error) {
    lend(undefined);
    gates.write(`check could not run: ${error instanceof Error ? error.stack : String(error)}\n`);
    return false;
  } finally {
    gatesShare?.release();
    (await lighthouseShare)?.release();
    gates.end();
  }
});
const unitStep = step('test:unit', WEIGHTS.unitWorker * unitWorkers, () => npmRun('test:unit', [`--maxWorkers=${unitWorkers}`], unit));
const e2eStep = lent.then((dir) => step('test:e2e', WEIGHTS.e2eWorker * e2eWorkers, () => npmRun('test:e2e', [`--maxWorkers=${e2eWorkers}`], e2e, dir ? { SITE_E2E_DIST: dir } : {})));

const steps = [...(await Promise.all(first)), await unitStep, await e2eStep];
othersEnded();
steps.push(await check);

for (const s of steps) if (s.failures) console.log(`\n── ${s.name} FAILED: its failures again ──\n${s.failures}`);
console.log(`\nnpm test: ${steps.map((s) => `${s.name} ${s.ok ? 'passed' : 'FAILED'} in ${Math.round(s.seconds)} s${s.beside.size ? ` (beside ${[...s.beside].join(', ')})` : ''}`).join('; ')}`);
console.log(`npm test: ${Math.round(since(started))} s in all on ${budget.free} of ${budget.cores} cores, at most ${cores.peak} steps at once; load average at the end ${load()}${await cpu()}`);
const counts = steps.flatMap((s) => (s.tests ? [s.tests] : []));
console.log(`${counts.reduce((n, c) => n + c.passed, 0)} passed, ${counts.reduce((n, c) => n + c.failed, 0)} failed`);
// A step can fail with every test passed (a hook or an error outside the tests): its tally says which.
for (const s of steps) if (!s.ok && s.tally) console.log(`npm test: ${s.name} FAILED: ${s.tally}`);
process.exit(steps.every((s) => s.ok) ? 0 : 1);
