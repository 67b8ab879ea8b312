import { watch, type FSWatcher } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';

export interface FolderWatcher {
  /** Resolves once every folder is watched: saves from then on are reported. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** An editor's own files beside the one it saves (.x.swp, x~): never a source. */
const editorFile = (name: string) => name.startsWith('.') || name.endsWith('~');

/**
 * Watches `dirs` and everything under them, and calls `onChange` with the absolute path of every
 * file or folder added, removed or saved: one watch of the operating system's per folder (inotify on
 * Linux), whose every event is passed on. A save made however soon after the last one is reported:
 * nothing here holds events back or drops them (the caller waits a few milliseconds for a save's
 * events to end, and reads the file after the last).
 *
 * Not chokidar: on every event in a folder it lists the folder again with a stat of each file (at
 * most once a second), and a blog's folder of ten thousand articles made each save cost 10,000
 * stats, some 0.2 s of the thread that answers the save; it also dropped a file's second change
 * within 50 ms, which the server then had to look for itself.
 */
export function watchFolders(dirs: string[], onChange: (file: string) => void): FolderWatcher {
  const watchers = new Map<string, FSWatcher>();
  let closed = false;

  const unwatch = (dir: string) => {
    for (const [watched, watcher] of watchers) {
      if (watched === dir || watched.startsWith(dir + path.sep)) { watcher.close(); watchers.delete(watched); }
    }
  };

  /** `dir` watched, and the folders in it; a folder that is not there (yet) is left alone. */
  const add = async (dir: string): Promise<void> => {
    if (closed || watchers.has(dir)) return;
    let watcher: FSWatcher;
    try { watcher = watch(dir); } catch { return; }
    watchers.set(dir, watcher);
    watcher.on('error', () => unwatch(dir));
    watcher.on('change', (event, name) => {
      if (closed || !name || editorFile(path.basename(String(name)))) return;
      const file = path.join(dir, String(name));
      // A name added or gone: a folder added is watched in turn, one removed is let go.
      if (event === 'rename') void stat(file).then((s) => (s.isDirectory() ? add(file) : undefined), () => unwatch(file));
      onChange(file);
    });
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    await Promise.all(entries.filter((e) => e.isDirectory() && !editorFile(e.name)).map((e) => add(path.join(dir, e.name))));
  };

  return {
    ready: Promise.all(dirs.map((dir) => add(path.resolve(dir)))).then(() => undefined),
    async close() {
      closed = true;
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}
