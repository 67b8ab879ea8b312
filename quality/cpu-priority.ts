import { mkdir, rmdir, writeFile } from 'node:fs/promises';
import { childrenOf } from './process-tree.mjs';

/** cgroup v1's CPU controller, where a group's `cpu.shares` weighs it against the other work (1,024 each). */
const CPU_CGROUPS = '/sys/fs/cgroup/cpu';

export interface CpuGroup {
  /** Moves the process and its descendants into the group; the processes they start later stay in it. Says why not, if it could not. */
  add(pid: number): Promise<string | undefined>;
  /** Removes the group, once the processes in it have ended. */
  remove(): Promise<void>;
}

/**
 * A CPU cgroup whose processes get `shares` against each other process's 1,024 when the cores are
 * contended (cgroup v1, as root). Where there is no such controller, or no right to it, `add` says
 * so and changes nothing.
 */
export async function cpuGroup(name: string, shares: number, controller = CPU_CGROUPS): Promise<CpuGroup> {
  const dir = `${controller}/${name}`;
  let unavailable: string | undefined;
  try {
    await mkdir(dir).catch((error: NodeJS.ErrnoException) => { if (error.code !== 'EEXIST') throw error; });
    await writeFile(`${dir}/cpu.shares`, String(shares));
  } catch (error) {
    unavailable = `no CPU cgroup (${(error as NodeJS.ErrnoException).code ?? String(error)} at ${dir})`;
  }
  return {
    async add(pid) {
      if (unavailable) return unavailable;
      try {
        // Each process on its own, and its children read only once it is in: a child it forks
        // before its move is listed, one after is born in the group (a list taken first missed a
        // renderer the zygote forked meanwhile). One that ended meanwhile (ESRCH) leaves the others to move.
        const members = [pid];
        for (let i = 0; i < members.length; i++) {
          await writeFile(`${dir}/cgroup.procs`, String(members[i])).catch((error: NodeJS.ErrnoException) => { if (error.code !== 'ESRCH') throw error; });
          members.push(...childrenOf(members[i]!));
        }
        return undefined;
      } catch (error) {
        return `could not move process ${pid} into ${dir} (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
      }
    },
    async remove() {
      if (unavailable) return;
      // A process killed a moment ago may still be leaving the group: a second at most.
      for (let tries = 0; tries < 10; tries++) {
        const busy = await rmdir(dir).then(() => false, (error: NodeJS.ErrnoException) => error.code === 'EBUSY');
        if (!busy) return;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
  };
}
