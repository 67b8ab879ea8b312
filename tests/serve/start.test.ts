import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchProject } from '../scratch-project.ts';

/** What `npm start` (`site serve`) prints on a scratch copy of the project, up to 'serving …'. */
let dir: string;
let out = '';
let err = '';

beforeAll(async () => {
  dir = await scratchProject('site-start-');
  const child = spawn(process.execPath, [path.resolve('bin/site'), '--root', dir, 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk: Buffer) => { out += chunk; });
  child.stderr.on('data', (chunk: Buffer) => { err += chunk; });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => { if (/^forms post to/m.test(out)) { clearInterval(timer); resolve(); } }, 50);
    child.once('exit', (code) => { clearInterval(timer); reject(new Error(`site serve exited (${code}) before serving:\n${out}\n${err}`)); });
  });
  child.kill('SIGTERM');
  await exited;
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('npm start (site serve) on start-up', () => {
  it('prints the build summary once, then where it serves', () => {
    expect(out.match(/^built \d+ pages/gm)).toHaveLength(1);
    expect(out.match(/^ {2}time: /gm)).toHaveLength(1);
    expect(out).toMatch(/^serving http:\/\/127\.0\.0\.1:\d+ /m);
  });

  it('prints no warning of ours or of a dependency: no deprecation, no end-of-support notice', () => {
    // bin/site may say once that it compiled the CLI; anything else on stderr is a warning someone would read.
    const rest = err.split('\n').filter((line) => line && !line.startsWith('site: compiling the CLI'));
    expect(rest).toEqual([]);
    expect(out).not.toMatch(/deprecat|maintenance|no longer support|end[- ]of[- ]life/i);
  });
});
