import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { existsSync } from 'node:fs';
import { access, constants, readFile, rmdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cpuGroup } from '../../quality/cpu-priority.ts';

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
