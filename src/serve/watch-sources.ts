import { readFile } from 'node:fs/promises';
import { watch } from 'chokidar';

/**
 * How long chokidar holds back further `change` events for a file after passing one on (its
 * internal throttle, 50 ms, which drops them rather than delaying them), plus a margin so that our
 * second look comes after its window has closed.
 */
export const THROTTLE_WINDOW_MS = 50 + 15;

export interface SourceWatcher {
  /** Resolves once the first scan is done: saves from then on are reported. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/**
 * Watches `dirs` and calls `onChange` with the absolute path of every file added, removed or saved,
 * never losing a save however soon it follows the one before.
 *
 * chokidar passes on at most one `change` per file in 50 ms and silently drops the rest, and a
 * rebuild now takes less than that: an editor's format-on-save, a script, or a second save made as
 * the page reloads would land inside the window and never rebuild. So for every change it does pass
 * on, we keep what the file held at that moment (before `onChange`, hence before any rebuild reads
 * it) and read it again once the window has closed. If it differs, that is a save chokidar dropped:
 * we report it as a change and look once more after another window, until the file holds still.
 * Saves after the window come through chokidar as usual.
 *
 * We compare contents, not mtime and size: Linux stamps files from a coarse clock (a few ms), so
 * two quick saves of the same length can share one mtime. Reading a source file twice per save is
 * cheap next to the rebuild the save starts.
 */
export function watchSources(dirs: string[], onChange: (file: string) => void): SourceWatcher {
  const watcher = watch(dirs, { ignoreInitial: true });
  const pending = new Map<string, NodeJS.Timeout>();
  let closed = false;

  const read = (file: string) => readFile(file).catch(() => undefined);
  const same = (a: Buffer | undefined, b: Buffer | undefined) => (a && b ? a.equals(b) : a === b);

  /** Remember what `file` holds now, report the change, and look again after the window. */
  const changed = async (file: string, known?: Buffer) => {
    const seen = known ?? await read(file);
    if (closed) return;
    onChange(file);
    clearTimeout(pending.get(file));
    pending.set(file, setTimeout(() => {
      pending.delete(file);
      void read(file).then((now) => {
        if (!closed && !same(now, seen)) void changed(file, now);
      });
    }, THROTTLE_WINDOW_MS));
  };

  watcher.on('all', (event, file) => {
    if (event === 'change') void changed(file);
    else onChange(file);
  });

  return {
    ready: new Promise((resolve) => watcher.once('ready', () => resolve())),
    async close() {
      closed = true;
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
      await watcher.close();
    },
  };
}
