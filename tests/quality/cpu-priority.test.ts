import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { existsSync } from 'node:fs';
import { access, constants, readFile, rmdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import * as chromeLauncher from 'chrome-launcher';
import { cpuGroup } from '../../quality/cpu-priority.ts';
import { CHROMIUM } from '../../quality/browser.ts';
import { CHROME_FLAGS, chromiumGroups } from '../../quality/lighthouse.ts';
import { processTree } from '../../quality/process-tree.mjs';

const CONTROLLER = '/sys/fs/cgroup/cpu';
const writable = existsSync(`${CONTROLLER}/cpu.shares`) && (await access(CONTROLLER, constants.W_OK).then(() => true, () => false));

/** The cpu cgroup a process is in, from /proc (cgroup v1: `N:cpu,cpuacct:/path`). */
async function cpuCgroupOf(pid: number): Promise<string | undefined> {
  const lines = (await readFile(`/proc/${pid}/cgroup`, 'utf8')).split('\n');
  return lines.map((l) => l.split(':')).find(([, controllers]) => controllers?.split(',').includes('cpu'))?.[2];
}

/** A shell that starts a sleeping child and prints its pid, then starts another when sent a line and prints that one's. */
function shell(): { sh: ChildProcessWithoutNullStreams; nextPid: () => Promise<number> } {
  const sh = spawn('sh', ['-c', 'sleep 60 & echo $!; read line; sleep 60 & echo $!; wait']);
  const lines = createInterface({ input: sh.stdout })[Symbol.asyncIterator]();
  return { sh, nextPid: async () => Number((await lines.next()).value) };
}

const started: ChildProcessWithoutNullStreams[] = [];
const made: string[] = [];
// A test that failed half-way leaves neither processes nor its group behind.
afterEach(async () => {
  for (const p of started.splice(0)) p.kill('SIGKILL');
  for (const dir of made.splice(0)) {
    const left = (await readFile(`${dir}/cgroup.procs`, 'utf8').catch(() => '')).split('\n').filter(Boolean);
    for (const pid of left) { try { process.kill(Number(pid), 'SIGKILL'); } catch { /* ended meanwhile */ } }
    await expect.poll(async () => { await rmdir(dir).catch(() => undefined); return existsSync(dir); }).toBe(false);
  }
});

describe('a CPU cgroup for the browser Lighthouse measures', () => {
  it('moves a process and its children into a group of the given weight, and the children it starts later join them (or, without the right, says why)', async () => {
    const name = `site-test-${process.pid}`;
    const group = await cpuGroup(name, 4096);
    if (writable) made.push(`${CONTROLLER}/${name}`);
    const { sh, nextPid } = shell();
    started.push(sh);
    const first = await nextPid();
    if (!writable) {
      expect(await group.add(sh.pid!)).toMatch(/^(no CPU cgroup|could not move process)/);
      return;
    }
    expect(await readFile(`${CONTROLLER}/${name}/cpu.shares`, 'utf8')).toBe('4096\n');
    expect(await group.add(sh.pid!)).toBeUndefined();
    expect(await cpuCgroupOf(sh.pid!)).toBe(`/${name}`);
    expect(await cpuCgroupOf(first)).toBe(`/${name}`);
    sh.stdin.write('go\n');
    const later = await nextPid();
    expect(await cpuCgroupOf(later)).toBe(`/${name}`);
    // Once its processes have ended, the group goes.
    for (const pid of [first, later]) process.kill(pid, 'SIGKILL');
    sh.kill('SIGKILL');
    await once(sh, 'exit');
    await expect.poll(async () => { await group.remove(); return existsSync(`${CONTROLLER}/${name}`); }).toBe(false);
  });

  it('takes in the children a process forks while it is being moved, not only those it had before', async () => {
    if (!writable) return;
    const name = `site-test-forking-${process.pid}`;
    const group = await cpuGroup(name, 4096);
    made.push(`${CONTROLLER}/${name}`);
    // A shell forking 300 sleepers as fast as it can, moved while it forks (as Chromium's zygote
    // forks a renderer while the gate moves it).
    const sh = spawn('sh', ['-c', 'echo go; i=0; while [ $i -lt 300 ]; do sleep 60 & i=$((i+1)); done; echo done; wait']);
    started.push(sh);
    const lines = createInterface({ input: sh.stdout })[Symbol.asyncIterator]();
    expect((await lines.next()).value).toBe('go');
    expect(await group.add(sh.pid!)).toBeUndefined();
    expect((await lines.next()).value).toBe('done');
    const outside: number[] = [];
    for (const pid of processTree(sh.pid!)) if ((await cpuCgroupOf(pid)) !== `/${name}`) outside.push(pid);
    expect(outside).toEqual([]);
    expect(processTree(sh.pid!)).toHaveLength(301);
  });

  it('where there is no such controller, says why and leaves the process where it was', async () => {
    const missing = path.join(os.tmpdir(), `no-cgroups-${process.pid}`, 'cpu');
    const group = await cpuGroup('site-test', 4096, missing);
    const { sh } = shell();
    started.push(sh);
    const before = await cpuCgroupOf(sh.pid!);
    expect(await group.add(sh.pid!)).toMatch(/^no CPU cgroup \(ENOENT at .*no-cgroups-\d+\/cpu\/site-test\)$/);
    expect(await cpuCgroupOf(sh.pid!)).toBe(before);
    await group.remove();
  });
});

describe("the CPU groups of Lighthouse's Chromium", () => {
  it('put the renderers, those running and those started later, in a group of their own, and the browser and its other processes in another (or, without the right, say why)', async () => {
    const name = `site-test-chromium-${process.pid}`;
    const groups = await chromiumGroups(name);
    if (writable) made.push(`${CONTROLLER}/${name}-renderers`, `${CONTROLLER}/${name}`);
    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
    try {
      const why = await groups.add(chrome.pid);
      if (!writable) {
        expect(why).toMatch(/^(no CPU cgroup|could not move process)/);
        return;
      }
      expect(why).toBeUndefined();
      // A tab opened now gets a renderer forked after the move.
      const before = new Set(processTree(chrome.pid));
      const opened = await fetch(`http://127.0.0.1:${chrome.port}/json/new?data:text/html,<p>later`, { method: 'PUT' });
      expect(opened.ok).toBe(true);
      const typeOf = async (pid: number) => ((await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).match(/--type=([\w-]+)/)?.[1] ?? 'browser');
      const laterRenderer = async () => {
        for (const pid of processTree(chrome.pid)) if (!before.has(pid) && (await typeOf(pid)) === 'renderer') return pid;
        return undefined;
      };
      await expect.poll(laterRenderer, { timeout: 10_000 }).toBeDefined();
      const seen = new Map<string, Set<string | undefined>>();
      for (const pid of processTree(chrome.pid)) {
        const type = await typeOf(pid);
        if (!seen.has(type)) seen.set(type, new Set());
        seen.get(type)!.add(await cpuCgroupOf(pid));
      }
      expect(seen.get('renderer')).toEqual(new Set([`/${name}-renderers`]));
      expect(seen.get('browser')).toEqual(new Set([`/${name}`]));
      expect(seen.get('gpu-process')).toEqual(new Set([`/${name}`]));
    } finally {
      chrome.kill();
      await groups.remove();
    }
  });
});
