// A stand-in of GitHub's REST API on 127.0.0.1, for the calls Decap CMS's GitHub backend makes when
// it signs in and saves: the user, the repository (with the push permission Decap checks), a branch,
// trees by `branch:folder`, blobs, a path's commits, and a save as blobs, a tree, a commit and a
// branch made (a ref) or moved to it; and, for the editorial workflow, pull requests, their labels,
// comparisons, merges and commit statuses (github-pulls-stand-in.ts). One repository, held in a
// real bare git repository through the git CLI. No more lenient than GitHub: every request needs a
// token the OAuth stand-in issued (401 otherwise), an unknown repository, branch, tree or blob is
// 404, a tree or commit naming a missing object is 422, a ref made twice is 422, and a branch moves
// only forward (422, "Update is not a fast forward") unless forced, and only from the commit it was
// at when the move was checked.
import http from 'node:http';
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Answer, notFound, pullsOf, unprocessable } from './github-pulls-stand-in.ts';
import { GitObjectReader } from './git-object-reader.ts';

export interface GitHubUser { login: string; id: number; name: string; email: string }

export interface GitHubApiStandIn {
  /** Its base address ('http://127.0.0.1:port'), where https://api.github.com's paths are answered. */
  url: string;
  /** Each request as 'METHOD /path' (its query left off), in order. */
  requests: string[];
  /**
   * `act` (say, another author's commit landing on the branch) is run once, as the next request to
   * move a branch arrives and before it is checked: that move then meets the branch as GitHub would
   * after the race, and is answered by the same rules.
   */
  beforeNextRefMove(act: () => Promise<unknown>): void;
  /** `act` is run once, as the next merge of a pull request arrives and before it is checked. */
  beforeNextMerge(act: () => Promise<unknown>): void;
  /** The pull requests, as GitHub lists them (newest first). */
  pulls(): Promise<Array<{ number: number; state: string; merged_at: string | null; labels: Array<{ name: string }>; head: { ref: string; sha: string }; base: { ref: string } }>>;
  close(): Promise<void>;
}

export interface GitHubApiOptions {
  /** owner/name: the one repository it holds. */
  repo: string;
  /** The bare repository (a git directory) that holds it. */
  gitDir: string;
  /** Whether a token is good (one the OAuth stand-in issued). */
  tokenIsGood: (token: string) => boolean;
  user: GitHubUser;
}

interface GitResult { code: number; out: Buffer; err: string }

/** git in the bare repository, its stdin `input`; its exit code and output (never a throw for a failing command). */
export function git(gitDir: string, args: string[], options: { input?: string | Buffer; env?: Record<string, string> } = {}): Promise<GitResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['--git-dir', gitDir, ...args], { env: { ...process.env, ...options.env, GIT_CONFIG_NOSYSTEM: '1' } });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => { err += c; });
    child.on('error', reject);
    // A command that reads no input may be gone before it is written: its exit code says how it went.
    child.stdin.on('error', () => undefined);
    child.on('close', (code) => resolve({ code: code ?? 1, out: Buffer.concat(out), err }));
    child.stdin.end(options.input ?? '');
  });
}


export async function startGitHubApiStandIn(options: GitHubApiOptions): Promise<GitHubApiStandIn> {
  const { gitDir, user } = options;
  const [owner, name] = options.repo.split('/') as [string, string];
  const requests: string[] = [];
  let beforeRefMove: (() => Promise<unknown>) | undefined;
  const run = async (args: string[], extra: Parameters<typeof git>[2] = {}) => git(gitDir, args, extra);
  // Names and objects read through one git process (git-object-reader.ts); what writes, diffs or lists, through a git each.
  const objects = new GitObjectReader(gitDir);
  const text = async (args: string[], extra: Parameters<typeof git>[2] = {}) => {
    const r = await run(args, extra);
    if (r.code !== 0) throw new Error(`git ${args.join(' ')}: ${r.err}`);
    return r.out.toString('utf8').trim();
  };
  /** The type of object `sha` names (a full 40-hex name only, as GitHub's API takes), or undefined. */
  const typeOf = async (sha: unknown) => {
    if (typeof sha !== 'string' || !/^[0-9a-f]{40}$/.test(sha)) return undefined;
    return (await objects.info(sha))?.type;
  };
  const headOf = async (branch: string) => (await objects.info(`refs/heads/${branch}^{commit}`))?.sha;
  const identity = { name: user.name, email: user.email };
  const commitJson = async (sha: string) => {
    const c = await objects.commit(sha);
    if (!c) throw new Error(`no commit ${sha}`);
    return {
      sha, url: `${base}/repos/${options.repo}/git/commits/${sha}`,
      tree: { sha: c.tree }, parents: c.parents.map((p) => ({ sha: p })),
      author: c.author, committer: c.committer,
      message: c.message.trim(),
    };
  };

  const pulls = pullsOf({ owner, full: options.repo, base: () => base, login: user.login, text, run, headOf, typeOf, commitJson });
  const refJson = (ref: string, sha: string) => ({ ref, node_id: '', url: `${base}/repos/${options.repo}/git/${ref}`, object: { sha, type: 'commit', url: `${base}/repos/${options.repo}/git/commits/${sha}` } });

  async function answer(method: string, url: URL, body: unknown): Promise<{ status: number; json: unknown }> {
    if (method === 'GET' && url.pathname === '/user') return { status: 200, json: { ...user, avatar_url: '', type: 'User' } };
    if (method === 'GET' && url.pathname === `/users/${user.login}`) return { status: 200, json: { login: user.login, id: user.id, name: user.name, avatar_url: '', type: 'User' } };
    if (method === 'GET' && url.pathname === '/search/issues') return pulls.search(url.searchParams.get('q') ?? '');
    const m = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(url.pathname);
    // GitHub answers a repository the token cannot see as it answers one that does not exist.
    if (!m || m[1]!.toLowerCase() !== owner.toLowerCase() || m[2]!.toLowerCase() !== name.toLowerCase()) throw notFound();
    const rest = m[3] ?? '';
    if (method === 'GET' && rest === '') {
      return { status: 200, json: { name, full_name: options.repo, owner: { login: owner }, private: false, default_branch: 'main', permissions: { admin: false, maintain: false, push: true, triage: true, pull: true } } };
    }
    let p: RegExpExecArray | null;
    if (method === 'GET' && (p = /^\/branches\/(.+)$/.exec(rest))) {
      const branch = decodeURIComponent(p[1]!);
      const sha = await headOf(branch);
      if (!sha) throw notFound('Branch not found');
      return { status: 200, json: { name: branch, commit: await commitJson(sha), protected: false } };
    }
    if (method === 'GET' && (p = /^\/git\/trees\/(.+)$/.exec(rest))) {
      // A tree by sha, or by `<branch>:<folder>` (git's extended syntax, which GitHub takes).
      const treeish = decodeURIComponent(p[1]!);
      if (treeish.startsWith('-')) throw notFound();
      // `rev:path` names the object at path (a '^{tree}' after it would be read as part of the path).
      const named = await objects.info(treeish.includes(':') ? treeish : `${treeish}^{tree}`);
      if (named?.type !== 'tree') throw notFound();
      const { sha } = named;
      const listed = await text(['ls-tree', '-l', '-z', ...(url.searchParams.get('recursive') ? ['-r', '-t'] : []), sha]);
      const tree = listed.split('\0').filter(Boolean).map((line) => {
        const [meta, file] = line.split('\t') as [string, string];
        const [mode, type, objectSha, size] = meta.split(/\s+/) as [string, string, string, string];
        return { path: file, mode, type, sha: objectSha, ...(type === 'blob' ? { size: Number(size) } : {}), url: `${base}/repos/${options.repo}/git/${type}s/${objectSha}` };
      });
      return { status: 200, json: { sha, url: `${base}/repos/${options.repo}/git/trees/${sha}`, tree, truncated: false } };
    }
    if (method === 'GET' && (p = /^\/git\/blobs\/([0-9a-f]{40})$/.exec(rest))) {
      const blob = await objects.contents(p[1]!);
      if (blob?.type !== 'blob') throw notFound();
      const { bytes } = blob;
      // GitHub wraps the base64 at 60 characters.
      return { status: 200, json: { sha: p[1], node_id: '', size: bytes.length, url: `${base}/repos/${options.repo}/git/blobs/${p[1]}`, content: `${bytes.toString('base64').replace(/.{60}/g, '$&\n')}\n`, encoding: 'base64' } };
    }
    if (method === 'GET' && rest === '/commits') {
      const from = url.searchParams.get('sha') ?? 'main';
      const at = from.startsWith('-') ? undefined : await objects.info(`${from}^{commit}`);
      if (!at) throw notFound(`No commit found for SHA: ${from}`);
      const file = url.searchParams.get('path');
      const shas = (await text(['rev-list', '--max-count=30', at.sha, ...(file ? ['--', file] : [])])).split('\n').filter(Boolean);
      return { status: 200, json: await Promise.all(shas.map(async (sha) => { const c = await commitJson(sha); return { sha, commit: { author: c.author, committer: c.committer, message: c.message, tree: c.tree }, parents: c.parents }; })) };
    }
    if (method === 'POST' && rest === '/git/blobs') {
      const { content, encoding = 'utf-8' } = (body ?? {}) as { content?: unknown; encoding?: unknown };
      if (typeof content !== 'string' || (encoding !== 'base64' && encoding !== 'utf-8')) throw unprocessable('Invalid request.\n\n"content" wasn\'t supplied.');
      const sha = await text(['hash-object', '-w', '--stdin'], { input: Buffer.from(content, encoding === 'base64' ? 'base64' : 'utf8') });
      return { status: 201, json: { sha, url: `${base}/repos/${options.repo}/git/blobs/${sha}` } };
    }
    if (method === 'POST' && rest === '/git/trees') {
      const { base_tree: baseTree, tree } = (body ?? {}) as { base_tree?: unknown; tree?: unknown };
      if (!Array.isArray(tree)) throw unprocessable('Invalid request.\n\n"tree" wasn\'t supplied.');
      const scratch = await mkdtemp(path.join(os.tmpdir(), 'github-stand-in-index-'));
      try {
        const env = { GIT_INDEX_FILE: path.join(scratch, 'index') };
        if (baseTree !== undefined) {
          const kind = await typeOf(baseTree);
          if (kind !== 'tree' && kind !== 'commit') throw unprocessable('base_tree is not a valid tree oid');
          await text(['read-tree', String(baseTree)], { env });
        }
        for (const entry of tree as Array<{ path?: unknown; mode?: unknown; type?: unknown; sha?: unknown }>) {
          const file = typeof entry.path === 'string' ? entry.path : '';
          if (!file || file.startsWith('/') || file.split('/').some((part) => part === '' || part === '.' || part === '..' || part === '.git')) throw unprocessable(`tree.path contains a malformed path component`);
          if (entry.type !== 'blob' || (entry.mode !== '100644' && entry.mode !== '100755')) throw unprocessable('Only blobs of mode 100644 or 100755 are taken here');
          if (entry.sha === null) {
            await text(['update-index', '--force-remove', '--', file], { env });
          } else {
            if (await typeOf(entry.sha) !== 'blob') throw unprocessable('GitRPC::BadObjectState');
            await text(['update-index', '--add', '--cacheinfo', `${entry.mode},${String(entry.sha)},${file}`], { env });
          }
        }
        const sha = await text(['write-tree'], { env });
        return { status: 201, json: { sha, url: `${base}/repos/${options.repo}/git/trees/${sha}`, tree: [], truncated: false } };
      } finally {
        await rm(scratch, { recursive: true, force: true });
      }
    }
    if (method === 'POST' && rest === '/git/commits') {
      const { message, tree, parents = [], author, committer } = (body ?? {}) as { message?: unknown; tree?: unknown; parents?: unknown; author?: { name?: string; email?: string; date?: string }; committer?: { name?: string; email?: string; date?: string } };
      if (typeof message !== 'string' || typeof tree !== 'string' || !Array.isArray(parents)) throw unprocessable('Invalid request.');
      if (await typeOf(tree) !== 'tree') throw unprocessable('Tree SHA does not exist');
      for (const parent of parents) if (await typeOf(parent) !== 'commit') throw unprocessable('Parent SHA does not exist or is not a commit object');
      // GitHub makes the token's user the author and committer of a commit that names none.
      const who = (person: typeof author, role: 'AUTHOR' | 'COMMITTER') => ({
        [`GIT_${role}_NAME`]: person?.name || identity.name, [`GIT_${role}_EMAIL`]: person?.email || identity.email, ...(person?.date ? { [`GIT_${role}_DATE`]: person.date } : {}),
      });
      const sha = await text(['commit-tree', tree, ...parents.flatMap((p) => ['-p', String(p)]), '-F', '-'], { input: message, env: { ...who(author, 'AUTHOR'), ...who(committer ?? author, 'COMMITTER') } });
      return { status: 201, json: await commitJson(sha) };
    }
    if (method === 'POST' && rest === '/git/refs') {
      const { ref, sha } = (body ?? {}) as { ref?: unknown; sha?: unknown };
      if (typeof ref !== 'string' || !/^refs\/[^/]+\/./.test(ref) || (await run(['check-ref-format', ref])).code !== 0) throw unprocessable(`${String(ref)} is not a valid ref name.`);
      if (await typeOf(sha) !== 'commit') throw unprocessable('Object does not exist');
      if (await objects.info(ref)) throw unprocessable('Reference already exists');
      // A ref beside a folder of refs of the same name (refs/heads/cms beside refs/heads/cms/x) cannot be made.
      if ((await run(['update-ref', ref, String(sha), ''])).code !== 0) throw unprocessable('Reference update failed');
      return { status: 201, json: refJson(ref, String(sha)) };
    }
    if (method === 'DELETE' && (p = /^\/git\/refs\/heads\/(.+)$/.exec(rest))) {
      const branch = decodeURIComponent(p[1]!);
      const old = await headOf(branch);
      if (!old) throw unprocessable('Reference does not exist');
      if ((await run(['update-ref', '-d', `refs/heads/${branch}`, old])).code !== 0) throw unprocessable('Reference does not exist');
      await pulls.branchDeleted(branch, old);
      return { status: 204, json: undefined };
    }
    const asked = await pulls.answer(method, rest, url, body);
    if (asked) return asked;
    if (method === 'PATCH' && (p = /^\/git\/refs\/heads\/(.+)$/.exec(rest))) {
      const branch = decodeURIComponent(p[1]!);
      const { sha, force = false } = (body ?? {}) as { sha?: unknown; force?: unknown };
      const act = beforeRefMove;
      beforeRefMove = undefined;
      await act?.();
      const old = await headOf(branch);
      if (!old) throw unprocessable('Reference does not exist');
      if (await typeOf(sha) !== 'commit') throw unprocessable('Object does not exist');
      if (force !== true && (await run(['merge-base', '--is-ancestor', old, String(sha)])).code !== 0) throw unprocessable('Update is not a fast forward');
      // Moved only from the commit the check saw: a save that raced another is refused, not lost.
      if ((await run(['update-ref', `refs/heads/${branch}`, String(sha), old])).code !== 0) throw unprocessable('Update is not a fast forward');
      return { status: 200, json: { ref: `refs/heads/${branch}`, url: `${base}/repos/${options.repo}/git/refs/heads/${branch}`, object: { sha, type: 'commit', url: `${base}/repos/${options.repo}/git/commits/${String(sha)}` } } };
    }
    throw notFound();
  }

  // GitHub's API answers any origin, and lets a page read the headers Decap reads.
  const cors = {
    'access-control-allow-origin': '*',
    'access-control-expose-headers': 'ETag, Link, Location, Retry-After, X-GitHub-OTP, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Used, X-RateLimit-Resource, X-RateLimit-Reset, X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Poll-Interval, X-GitHub-Media-Type, X-GitHub-SSO, X-GitHub-Request-Id, Deprecation, Sunset',
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const method = req.method ?? 'GET';
      if (method === 'OPTIONS') {
        res.writeHead(204, { ...cors, 'access-control-allow-headers': 'Authorization, Content-Type, If-Match, If-Modified-Since, If-None-Match, If-Unmodified-Since, Accept-Encoding, X-GitHub-OTP, X-Requested-With, User-Agent, GraphQL-Features', 'access-control-allow-methods': 'GET, POST, PATCH, PUT, DELETE', 'access-control-max-age': '86400' });
        return res.end();
      }
      requests.push(`${method} ${url.pathname}`);
      const send = (status: number, json: unknown) => {
        if (status === 204) { res.writeHead(204, cors); return res.end(); }
        res.writeHead(status, { ...cors, 'content-type': 'application/json; charset=utf-8', 'cache-control': 'private, max-age=60, s-maxage=60' });
        res.end(JSON.stringify(json));
      };
      const [scheme, token] = (req.headers.authorization ?? '').split(' ', 2);
      if (!/^(token|bearer)$/i.test(scheme ?? '') || !token || !options.tokenIsGood(token)) return send(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' });
      let body: unknown;
      if (chunks.length) {
        try { body = JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { return send(400, { message: 'Problems parsing JSON', documentation_url: 'https://docs.github.com/rest' }); }
      }
      answer(method, url, body).then(({ status, json }) => send(status, json), (error: unknown) => {
        if (error instanceof Answer) return send(error.status, error.body);
        send(500, { message: error instanceof Error ? error.message : String(error) });
      });
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    requests,
    beforeNextRefMove: (act) => { beforeRefMove = act; },
    beforeNextMerge: (act) => pulls.beforeNextMerge(act),
    pulls: () => pulls.list(),
    close: async () => {
      await new Promise<void>((ok) => { server.closeAllConnections(); server.close(() => ok()); });
      await objects.close();
    },
  };
}
