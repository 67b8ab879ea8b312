// Names resolved and objects read in a bare git repository through one long-lived
// `git cat-file --batch-command` process, for the GitHub API stand-in: Decap's calls ask for a
// branch, a tree, a blob or a commit hundreds of times in a test, and a git process started for
// each (a fork of the test's process, some hundreds of megabytes) cost 20-30 ms of CPU apiece.
// git resolves each name when it is asked (a ref moved or deleted by another git process since is
// seen), as `git rev-parse --verify` would for the names the stand-in uses (`<ref>^{commit}`,
// `<rev>^{tree}`, `<rev>:<path>`, a full object name).
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

export interface ObjectInfo { sha: string; type: string; size: number }
export interface Identity { name: string; email: string; date: string }
export interface CommitFields { tree: string; parents: string[]; author: Identity; committer: Identity; message: string }

/** One answer awaited: the bytes that make it up, once they are all there (undefined until then). */
type Reading = (buffer: Buffer) => { used: number; value: ObjectInfo & { bytes?: Buffer } | undefined } | undefined;

const HEADER = /^([0-9a-f]{40}) (\S+) (\d+)$/;

/** One answer line and, for `contents`, the object's bytes after it. */
const reading = (withContents: boolean): Reading => (buffer) => {
  const end = buffer.indexOf(10);
  if (end === -1) return undefined;
  const line = buffer.subarray(0, end).toString('utf8');
  const m = HEADER.exec(line);
  // "<name> missing" or "<name> ambiguous": no such object.
  if (!m) return { used: end + 1, value: undefined };
  const info = { sha: m[1]!, type: m[2]!, size: Number(m[3]) };
  if (!withContents) return { used: end + 1, value: info };
  if (buffer.length < end + 1 + info.size + 1) return undefined;
  return { used: end + 1 + info.size + 1, value: { ...info, bytes: Buffer.from(buffer.subarray(end + 1, end + 1 + info.size)) } };
};

/** A commit's author or committer line's value, its date as `git show --format=%aI` gives it (the offset it was made at). */
function identity(value: string): Identity {
  const m = /^(.*) <(.*)> (\d+) ([+-])(\d\d)(\d\d)$/.exec(value);
  if (!m) throw new Error(`not a commit identity: ${value}`);
  const offset = (m[4] === '-' ? -1 : 1) * (Number(m[5]) * 60 + Number(m[6]));
  const local = new Date((Number(m[3]) + offset * 60) * 1000).toISOString().slice(0, 19);
  return { name: m[1]!, email: m[2]!, date: `${local}${m[4]}${m[5]}:${m[6]}` };
}

/** A raw commit object's fields: its headers (continuation lines skipped) and its message after the blank line. */
export function commitFields(raw: string): CommitFields {
  const split = raw.indexOf('\n\n');
  const head = (split === -1 ? raw : raw.slice(0, split)).split('\n').filter((l) => !l.startsWith(' '));
  const value = (key: string) => head.filter((l) => l.startsWith(`${key} `)).map((l) => l.slice(key.length + 1));
  return {
    tree: value('tree')[0] ?? '',
    parents: value('parent'),
    author: identity(value('author')[0] ?? ''),
    committer: identity(value('committer')[0] ?? ''),
    message: split === -1 ? '' : raw.slice(split + 2),
  };
}

export class GitObjectReader {
  private child: ChildProcessByStdio<Writable, Readable, null> | undefined;
  private buffer: Buffer = Buffer.alloc(0);
  private readonly queue: Array<{ read: Reading; done: (value: (ObjectInfo & { bytes?: Buffer }) | undefined) => void; fail: (error: Error) => void }> = [];

  constructor(private readonly gitDir: string) {}

  /** The object `name` names (its full name, type and size), or undefined if it names none. */
  info(name: string): Promise<ObjectInfo | undefined> {
    return this.ask('info', name, false);
  }

  /** The object `name` names with its bytes, or undefined if it names none. */
  contents(name: string): Promise<(ObjectInfo & { bytes: Buffer }) | undefined> {
    return this.ask('contents', name, true) as Promise<(ObjectInfo & { bytes: Buffer }) | undefined>;
  }

  /** The commit `sha`'s fields, or undefined if it is not a commit. */
  async commit(sha: string): Promise<CommitFields | undefined> {
    const read = await this.contents(sha);
    return read?.type === 'commit' ? commitFields(read.bytes.toString('utf8')) : undefined;
  }

  async close(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((ok) => { child.once('close', () => ok()); child.stdin.end(); });
  }

  private ask(command: string, name: string, withContents: boolean): Promise<(ObjectInfo & { bytes?: Buffer }) | undefined> {
    // One command a line: a name that would end it early names nothing here (nor could a GitHub path hold it).
    if (!name || /[\n\r]/.test(name)) return Promise.resolve(undefined);
    const child = this.start();
    return new Promise((done, fail) => {
      this.queue.push({ read: reading(withContents), done, fail });
      child.stdin.write(`${command} ${name}\n`);
    });
  }

  private start(): ChildProcessByStdio<Writable, Readable, null> {
    if (this.child) return this.child;
    const child = spawn('git', ['--git-dir', this.gitDir, 'cat-file', '--batch-command'], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
    this.child = child;
    this.buffer = Buffer.alloc(0);
    child.stdin.on('error', () => undefined);
    child.stdout.on('data', (chunk: Buffer) => {
      this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
      while (this.queue.length) {
        const answer = this.queue[0]!.read(this.buffer);
        if (!answer) break;
        this.buffer = this.buffer.subarray(answer.used);
        this.queue.shift()!.done(answer.value);
      }
    });
    child.on('close', (code) => {
      if (this.child === child) this.child = undefined;
      for (const waiting of this.queue.splice(0)) waiting.fail(new Error(`git cat-file --batch-command in ${this.gitDir} ended (exit ${code}) before it answered`));
    });
    return child;
  }
}
