import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { htmlFiles } from './html.ts';
import type { GateReport } from './report.ts';

/**
 * Valid HTML by the W3C's own checker: the Nu Html Checker (vnu.jar from the `vnu-jar` package)
 * over every page of a build, in one Java process (its start-up costs more than the checking).
 * It knows HTML's content model better than html-validate (`sizes` without `srcset`, `imagesizes`
 * without `imagesrcset`…). Errors fail the gate; warnings are listed; info messages are skipped.
 */
const VNU_JAR = createRequire(import.meta.url).resolve('vnu-jar/build/dist/vnu.jar');
const JAVA_MISSING = 'the Nu Html Checker needs Java 17 or newer: apt-get install default-jre-headless (.ci/run does it)';

/**
 * A short run's JVM: the client compiler alone and the serial collector. The checker is done in
 * seconds, before the server compiler's work would pay off: over the site's 42 pages it took 3.8 s of
 * CPU against 7.3–8.2 s with the defaults, the same messages (29 November 2026). Code compiled by the
 * client compiler takes more stack, and the checker's schema is deeply recursive: 16 MB, where the
 * checker asks for 512 KB with the defaults.
 */
const JVM_FLAGS = ['-Xss16m', '-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'];

interface VnuMessage {
  type: 'error' | 'info' | 'non-document-error';
  subType?: string;
  url?: string;
  lastLine?: number;
  firstColumn?: number;
  lastColumn?: number;
  message: string;
}

export interface NuMessage { file: string; line: number; column: number; message: string; severity: 'error' | 'warning' }

function run(args: string[], cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('java', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
    child.on('error', (error: NodeJS.ErrnoException) => reject(error.code === 'ENOENT' ? new Error(JAVA_MISSING) : error));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Checks every HTML file under `dir`; returns the files and what the checker said about them. */
export async function nuCheckDir(dir: string): Promise<{ files: string[]; messages: NuMessage[]; ms: number }> {
  const files = await htmlFiles(dir);
  if (files.length === 0) return { files, messages: [], ms: 0 };
  const started = performance.now();
  // Relative paths keep the command line short; --exit-zero-always leaves a non-zero code to mean "Java failed".
  const { code, stdout, stderr } = await run([...JVM_FLAGS, '-jar', VNU_JAR, '--format', 'json', '--stdout', '--skip-info-messages', '--exit-zero-always', ...files], dir);
  const ms = performance.now() - started;
  let parsed: { messages: VnuMessage[] };
  try {
    parsed = JSON.parse(stdout) as { messages: VnuMessage[] };
  } catch {
    throw new Error(`the Nu Html Checker did not run (exit ${code}): ${(stderr || stdout).trim().split('\n').slice(0, 3).join(' ')}`);
  }
  const root = path.resolve(dir);
  const messages = parsed.messages.map((m): NuMessage => ({
    file: m.url ? path.relative(root, fileURLToPath(m.url)).split(path.sep).join('/') : '(checker)',
    line: m.lastLine ?? 0,
    column: m.firstColumn ?? m.lastColumn ?? 0,
    message: m.message,
    // A non-document error (a file it could not read, say) fails the gate like an invalid page.
    severity: m.type === 'info' ? 'warning' : 'error',
  }));
  return { files, messages, ms };
}

export async function vnuGate(opts: { dir: string }): Promise<GateReport> {
  const { files, messages, ms } = await nuCheckDir(opts.dir);
  const count = (file: string, severity: NuMessage['severity']) => messages.filter((m) => m.file === file && m.severity === severity).length;
  const line = (m: NuMessage) => `${m.file}:${m.line}:${m.column} ${m.message}`;
  const errors = messages.filter((m) => m.severity === 'error');
  const warnings = messages.filter((m) => m.severity === 'warning');
  return {
    gate: 'vnu (Nu Html Checker)',
    columns: ['page', 'errors', 'warnings'],
    rows: [['(limit)', '0', '-'], ...files.map((f) => [f, String(count(f, 'error')), String(count(f, 'warning'))])],
    failures: errors.map(line),
    warnings: warnings.map(line),
    summary: `vnu: ${files.length} pages in one Java process (${(ms / 1000).toFixed(1)} s), ${errors.length} errors, ${warnings.length} warnings`,
  };
}
