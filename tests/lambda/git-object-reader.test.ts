import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git } from './github-api-stand-in.ts';
import { GitObjectReader } from './git-object-reader.ts';

let dir: string;
let gitDir: string;
let reader: GitObjectReader;

const text = async (args: string[], input?: string, env?: Record<string, string>) => {
  const r = await git(gitDir, args, { input, env });
  if (r.code !== 0) throw new Error(`git ${args.join(' ')}: ${r.err}`);
  return r.out.toString('utf8').trim();
};

/** A commit of one file, dated `date` (git's `<epoch> <offset>`), its message `message`. */
async function commit(content: string, message: string, date: string, parent?: string): Promise<string> {
  const blob = await text(['hash-object', '-w', '--stdin'], content);
  const tree = await text(['mktree'], `100644 blob ${blob}\tnotes.md\n040000 tree ${await text(['mktree'], `100644 blob ${blob}\tinner.md\n`)}\tfolder\n`);
  const who = { GIT_AUTHOR_NAME: 'Aileen Ross', GIT_AUTHOR_EMAIL: 'aileen@example.com', GIT_AUTHOR_DATE: date, GIT_COMMITTER_NAME: 'Site Bot', GIT_COMMITTER_EMAIL: 'bot@example.com', GIT_COMMITTER_DATE: date };
  return text(['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-F', '-'], message, who);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'git-reader-'));
  gitDir = path.join(dir, 'repo.git');
  await text(['init', '-q', '--bare', gitDir]);
  reader = new GitObjectReader(gitDir);
});

afterAll(async () => {
  await reader?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the git object reader of the GitHub API stand-in', () => {
  it('reads a commit as git show gives it: tree, parents, names, addresses, dates at their own offsets, the message', async () => {
    const first = await commit('one\n', 'Add notes\n', '1764514800 +0530');
    const second = await commit('two\n', 'Edit notes\n\nA body of two lines,\nthe second here.\n', '1764514800 -0800', first);
    for (const sha of [first, second]) {
      const shown = (await text(['show', '-s', '--format=%T%n%P%n%an%n%ae%n%aI%n%cn%n%ce%n%cI%n%B', sha])).split('\n');
      const [tree, parents, an, ae, ad, cn, ce, cd, ...message] = shown;
      const read = await reader.commit(sha);
      expect(read, sha).toEqual({
        tree, parents: parents ? parents.split(' ') : [],
        author: { name: an, email: ae, date: ad }, committer: { name: cn, email: ce, date: cd },
        message: expect.any(String),
      });
      expect(read!.message.trim()).toBe(message.join('\n').trim());
    }
    expect((await reader.commit(second))!.author.date).toBe('2025-11-30T07:00:00-08:00');
  });

  it('resolves the names rev-parse --verify does, each as it stands when asked: a ref moved or deleted by another git is seen', async () => {
    const first = await commit('one\n', 'First\n', '1764514800 +0000');
    const second = await commit('two\n', 'Second\n', '1764518400 +0000', first);
    await text(['update-ref', 'refs/heads/main', first]);
    expect((await reader.info('refs/heads/main^{commit}'))?.sha).toBe(first);
    await text(['update-ref', 'refs/heads/main', second]);
    await text(['update-ref', 'refs/heads/cms/posts/a', first]);
    for (const name of ['refs/heads/main^{commit}', 'main^{tree}', 'main:folder', 'main:notes.md', 'refs/heads/cms/posts/a^{commit}']) {
      expect((await reader.info(name))?.sha, name).toBe(await text(['rev-parse', '--verify', '--quiet', name]));
    }
    expect((await reader.info('main:folder'))?.type).toBe('tree');
    await text(['update-ref', '-d', 'refs/heads/cms/posts/a']);
    expect(await reader.info('refs/heads/cms/posts/a^{commit}')).toBeUndefined();
    expect(await reader.info('refs/heads/cms/posts^{commit}')).toBeUndefined();
    expect(await reader.info('main:no-such-file.md')).toBeUndefined();
    expect(await reader.info('0'.repeat(40))).toBeUndefined();
    // A name that would end the command's line names nothing.
    expect(await reader.info('main\ninfo main')).toBeUndefined();
  });

  it("gives a blob's bytes as git cat-file does, however many are asked for at once", async () => {
    const contents = ['short\n', 'x'.repeat(200_000), '', 'line one\r\nline two\n\n'];
    const shas = await Promise.all(contents.map((c) => text(['hash-object', '-w', '--stdin'], c)));
    const read = await Promise.all([...shas, ...shas].map((sha) => reader.contents(sha)));
    expect(read.map((r) => r && [r.type, r.bytes.toString('utf8')])).toEqual([...contents, ...contents].map((c) => ['blob', c]));
  });
});
