// The pull-request half of the stand-in of GitHub's REST API (github-api-stand-in.ts): what Decap
// CMS's GitHub backend asks for in its editorial workflow. A draft is a branch made by a ref
// (POST git/refs) and a pull request (POST pulls) whose labels (PUT issues/N/labels) say its status;
// it is read back by listing pulls by head, comparing base...head, and reading the combined status
// of its head (the preview's link); it is published by merging (PUT pulls/N/merge) and deleting the
// branch. Answered as GitHub answers: a pull request already open for a head, or with no commits,
// is 422; a merge names the head it was shown (409 when the head moved since), and one that
// conflicts with its base, or of a pull request no longer open, is 405; a status's state is one of
// GitHub's four (422 otherwise), on a commit that exists.

/** What the stand-in's git half lends the pulls half. */
export interface Repo {
  owner: string;
  full: string;
  base: () => string;
  login: string;
  /** git in the bare repository: its output, trimmed (a throw when git fails). */
  text: (args: string[], extra?: { input?: string; env?: Record<string, string> }) => Promise<string>;
  /** git's exit code and output. */
  run: (args: string[]) => Promise<{ code: number; out: Buffer }>;
  headOf: (branch: string) => Promise<string | undefined>;
  typeOf: (sha: unknown) => Promise<string | undefined>;
  commitJson: (sha: string) => Promise<{ sha: string; tree: { sha?: string }; parents: Array<{ sha: string }>; author: object; committer: object; message: string }>;
}

export class Answer extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(status: number, body: unknown) { super(String(status)); this.status = status; this.body = body; }
}
const said = (status: number, message: string, extra: object = {}) => new Answer(status, { message, ...extra, documentation_url: 'https://docs.github.com/rest', status: String(status) });
export const notFound = (message = 'Not Found') => said(404, message);
export const unprocessable = (message: string) => said(422, message);
const invalid = (resource: string, field: string, code = 'invalid', message?: string) => said(422, 'Validation Failed', { errors: [{ resource, field, code, ...(message ? { message } : {}) }] });

interface Pull {
  number: number; title: string; body: string; head: string; base: string; login: string;
  state: 'open' | 'closed'; labels: string[]; created: string; updated: string;
  closed: string | null; merged: string | null; mergeSha: string | null;
  /** The head's commit when the pull request closed (its branch may be gone since). */
  headSha?: string;
}
interface Status { id: number; state: string; target_url: string | null; description: string | null; context: string; created_at: string; updated_at: string }

const STATES = ['error', 'failure', 'pending', 'success'];
const now = () => new Date().toISOString().replace(/\.\d+Z$/, 'Z');

export function pullsOf(repo: Repo) {
  const pulls = new Map<number, Pull>();
  const statuses = new Map<string, Status[]>();
  let next = 1;
  let nextStatus = 1;
  /** Run once as the next merge arrives, before it is checked. */
  let beforeMerge: (() => Promise<unknown>) | undefined;

  const repoJson = () => ({ name: repo.full.split('/')[1], full_name: repo.full, owner: { login: repo.owner }, fork: false, private: false, default_branch: 'main' });
  const labelJson = (name: string) => ({ id: [...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7), node_id: '', url: `${repo.base()}/repos/${repo.full}/labels/${encodeURIComponent(name)}`, name, color: 'ededed', default: false, description: null });
  const headSha = async (p: Pull) => (p.state === 'open' ? await repo.headOf(p.head) : undefined) ?? p.headSha ?? '';
  const pullJson = async (p: Pull) => ({
    url: `${repo.base()}/repos/${repo.full}/pulls/${p.number}`, id: 1000 + p.number, node_id: '', number: p.number,
    html_url: `https://github.com/${repo.full}/pull/${p.number}`, state: p.state, locked: false, draft: false, title: p.title, body: p.body,
    user: { login: p.login, type: 'User' }, labels: p.labels.map(labelJson),
    created_at: p.created, updated_at: p.updated, closed_at: p.closed, merged_at: p.merged, merge_commit_sha: p.mergeSha,
    head: { label: `${repo.owner}:${p.head}`, ref: p.head, sha: await headSha(p), user: { login: repo.owner }, repo: repoJson() },
    base: { label: `${repo.owner}:${p.base}`, ref: p.base, sha: (await repo.headOf(p.base)) ?? '', user: { login: repo.owner }, repo: repoJson() },
  });
  const pullAt = (n: string) => {
    const p = pulls.get(Number(n));
    if (!p) throw notFound();
    return p;
  };
  /** A commit named as compare and status take it: a full sha, a branch, or `owner:branch`. */
  const commitOf = async (name: string) => {
    const [who, ref] = name.includes(':') ? name.split(':', 2) as [string, string] : [repo.owner, name];
    if (who.toLowerCase() !== repo.owner.toLowerCase()) return undefined;
    if (/^[0-9a-f]{40}$/.test(ref)) return (await repo.typeOf(ref)) === 'commit' ? ref : undefined;
    return repo.headOf(ref);
  };
  const commitEntry = async (sha: string) => {
    const c = await repo.commitJson(sha);
    return { sha, url: `${repo.base()}/repos/${repo.full}/commits/${sha}`, commit: { author: c.author, committer: c.committer, message: c.message, tree: c.tree }, parents: c.parents };
  };

  /** The files base...head changes (from their merge base), each with its patch unless binary, as GitHub lists them. */
  const filesBetween = async (from: string, to: string) => {
    const raw = (await repo.text(['diff', '--raw', '-z', '-M', '--no-abbrev', from, to])).split('\0').filter(Boolean);
    const files: object[] = [];
    for (let i = 0; i < raw.length;) {
      const [, , , sha, letter] = raw[i++]!.slice(1).split(' ') as [string, string, string, string, string];
      const renamed = letter.startsWith('R');
      const previous = renamed ? raw[i++]! : undefined;
      const filename = raw[i++]!;
      const numstat = await repo.text(['diff', '--numstat', from, to, '--', ...(previous ? [previous] : []), filename]);
      const [added, removed] = numstat.split('\t');
      const binary = added === '-';
      // GitHub's patch is the diff's hunks, without its header lines.
      const lines = binary ? [] : (await repo.text(['diff', '--unified=3', from, to, '--', ...(previous ? [previous] : []), filename])).split('\n');
      const patch = binary ? undefined : lines.slice(Math.max(0, lines.findIndex((l) => l.startsWith('@@')))).join('\n');
      const status = ({ A: 'added', D: 'removed', M: 'modified', R: 'renamed', T: 'changed' } as Record<string, string>)[letter[0]!] ?? 'modified';
      files.push({
        sha: letter === 'D' ? '0'.repeat(40) : sha, filename, status,
        additions: binary ? 0 : Number(added), deletions: binary ? 0 : Number(removed), changes: binary ? 0 : Number(added) + Number(removed),
        ...(patch !== undefined && patch !== '' ? { patch } : {}), ...(previous ? { previous_filename: previous } : {}),
      });
    }
    return files;
  };

  async function answer(method: string, rest: string, url: URL, body: unknown): Promise<{ status: number; json: unknown } | undefined> {
    let p: RegExpExecArray | null;
    const input = (body ?? {}) as Record<string, unknown>;
    if (method === 'GET' && rest === '/pulls') {
      const state = url.searchParams.get('state') ?? 'open';
      if (!['open', 'closed', 'all'].includes(state)) throw invalid('PullRequest', 'state');
      const head = url.searchParams.get('head');
      const base = url.searchParams.get('base');
      const [who, branch] = head?.includes(':') ? head.split(':', 2) as [string, string] : [head ?? '', undefined];
      const listed = [...pulls.values()].filter((x) => (state === 'all' || x.state === state) && (!base || x.base === base)
        && (!head || (who.toLowerCase() === repo.owner.toLowerCase() && (branch === undefined || x.head === branch))));
      const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 30) || 30, 100);
      return { status: 200, json: await Promise.all(listed.sort((a, b) => b.number - a.number).slice(0, perPage).map(pullJson)) };
    }
    if (method === 'POST' && rest === '/pulls') {
      const { title, head, base, body: text = '' } = input as { title?: unknown; head?: unknown; base?: unknown; body?: unknown };
      if (typeof title !== 'string' || !title) throw invalid('PullRequest', 'title', 'missing_field');
      const branch = typeof head === 'string' ? (head.includes(':') ? (head.split(':')[0]!.toLowerCase() === repo.owner.toLowerCase() ? head.split(':').slice(1).join(':') : '') : head) : '';
      const [headAt, baseAt] = [branch ? await repo.headOf(branch) : undefined, typeof base === 'string' ? await repo.headOf(base) : undefined];
      if (!baseAt) throw invalid('PullRequest', 'base');
      if (!headAt) throw invalid('PullRequest', 'head');
      if ([...pulls.values()].some((x) => x.state === 'open' && x.head === branch && x.base === base)) throw invalid('PullRequest', 'head', 'custom', `A pull request already exists for ${repo.owner}:${branch}.`);
      if ((await repo.run(['merge-base', '--is-ancestor', headAt, baseAt])).code === 0) throw invalid('PullRequest', 'head', 'custom', `No commits between ${String(base)} and ${branch}`);
      const at = now();
      const made: Pull = { number: next++, title, body: String(text ?? ''), head: branch, base: String(base), login: repo.login, state: 'open', labels: [], created: at, updated: at, closed: null, merged: null, mergeSha: null };
      pulls.set(made.number, made);
      return { status: 201, json: await pullJson(made) };
    }
    if (method === 'GET' && (p = /^\/pulls\/(\d+)$/.exec(rest))) {
      const pull = pullAt(p[1]!);
      return { status: 200, json: { ...await pullJson(pull), merged: pull.merged !== null } };
    }
    if (method === 'PATCH' && (p = /^\/pulls\/(\d+)$/.exec(rest))) {
      const pull = pullAt(p[1]!);
      const { state } = input as { state?: unknown };
      if (state !== undefined && state !== 'open' && state !== 'closed') throw invalid('PullRequest', 'state');
      if (state === 'open' && pull.merged) throw unprocessable('Cannot reopen a merged pull request');
      if (state === 'closed' && pull.state === 'open') Object.assign(pull, { headSha: await headSha(pull), state, closed: now() });
      if (state === 'open' && pull.state === 'closed') {
        if (!await repo.headOf(pull.head)) throw invalid('PullRequest', 'state', 'custom', 'state cannot be changed. The head branch was deleted.');
        Object.assign(pull, { state, closed: null });
      }
      pull.updated = now();
      return { status: 200, json: await pullJson(pull) };
    }
    if (method === 'PUT' && (p = /^\/pulls\/(\d+)\/merge$/.exec(rest))) {
      const pull = pullAt(p[1]!);
      const { sha, merge_method: how = 'merge', commit_title: title, commit_message: message } = input as { sha?: unknown; merge_method?: unknown; commit_title?: unknown; commit_message?: unknown };
      if (how !== 'merge' && how !== 'squash') throw invalid('PullRequest', 'merge_method');
      const act = beforeMerge;
      beforeMerge = undefined;
      await act?.();
      if (pull.state !== 'open') throw said(405, 'Pull Request is not mergeable');
      const [head, base] = [await repo.headOf(pull.head), await repo.headOf(pull.base)];
      if (!head || !base) throw said(405, 'Pull Request is not mergeable');
      if (sha !== undefined && sha !== head) throw said(409, 'Head branch was modified. Review and try the merge again.');
      const merged = await repo.run(['merge-tree', '--write-tree', base, head]);
      if (merged.code !== 0) throw said(405, 'Pull Request is not mergeable');
      const tree = merged.out.toString().split('\n')[0]!.trim();
      const heading = typeof title === 'string' && title ? title : how === 'merge' ? `Merge pull request #${pull.number} from ${repo.owner}/${pull.head}` : `${pull.title} (#${pull.number})`;
      const who = await repo.text(['show', '-s', '--format=%an%n%ae', head]);
      const [name, email] = who.split('\n');
      const env = { GIT_AUTHOR_NAME: name!, GIT_AUTHOR_EMAIL: email!, GIT_COMMITTER_NAME: 'GitHub', GIT_COMMITTER_EMAIL: 'noreply@github.com' };
      const commit = await repo.text(['commit-tree', tree, '-p', base, ...(how === 'merge' ? ['-p', head] : []), '-F', '-'], { input: typeof message === 'string' && message ? `${heading}\n\n${message}` : heading, env });
      if ((await repo.run(['update-ref', `refs/heads/${pull.base}`, commit, base])).code !== 0) throw said(405, 'Base branch was modified. Review and try the merge again.');
      const at = now();
      Object.assign(pull, { state: 'closed', closed: at, merged: at, updated: at, mergeSha: commit, headSha: head });
      return { status: 200, json: { sha: commit, merged: true, message: 'Pull Request successfully merged' } };
    }
    if (method === 'PUT' && (p = /^\/issues\/(\d+)\/labels$/.exec(rest))) {
      const pull = pullAt(p[1]!);
      const { labels } = input as { labels?: unknown };
      if (!Array.isArray(labels) || labels.some((l) => typeof l !== 'string' || !l)) throw invalid('Label', 'name');
      pull.labels = [...new Set(labels as string[])];
      pull.updated = now();
      return { status: 200, json: pull.labels.map(labelJson) };
    }
    if (method === 'GET' && (p = /^\/compare\/(.+)$/.exec(rest))) {
      const [from, to] = decodeURIComponent(p[1]!).split('...') as [string, string | undefined];
      const [fromSha, toSha] = [await commitOf(from), to === undefined ? undefined : await commitOf(to)];
      if (!fromSha || !toSha) throw notFound();
      const mergeBase = await repo.text(['merge-base', fromSha, toSha]);
      const ahead = (await repo.text(['rev-list', '--reverse', `${mergeBase}..${toSha}`])).split('\n').filter(Boolean);
      const behind = Number(await repo.text(['rev-list', '--count', `${mergeBase}..${fromSha}`]));
      return {
        status: 200, json: {
          base_commit: await commitEntry(fromSha), merge_base_commit: await commitEntry(mergeBase),
          status: ahead.length && behind ? 'diverged' : ahead.length ? 'ahead' : behind ? 'behind' : 'identical',
          ahead_by: ahead.length, behind_by: behind, total_commits: ahead.length,
          commits: await Promise.all(ahead.map(commitEntry)), files: await filesBetween(mergeBase, toSha),
        },
      };
    }
    if (method === 'POST' && (p = /^\/statuses\/(.+)$/.exec(rest))) {
      const sha = decodeURIComponent(p[1]!);
      if (!/^[0-9a-f]{40}$/.test(sha) || await repo.typeOf(sha) !== 'commit') throw unprocessable(`No commit found for SHA: ${sha}`);
      const { state, target_url: target = null, description = null, context = 'default' } = input as { state?: unknown; target_url?: unknown; description?: unknown; context?: unknown };
      if (typeof state !== 'string' || !STATES.includes(state)) throw invalid('Status', 'state');
      if (target !== null && (typeof target !== 'string' || !/^https?:\/\//.test(target))) throw invalid('Status', 'target_url');
      const at = now();
      const made: Status = { id: nextStatus++, state, target_url: target as string | null, description: description as string | null, context: String(context), created_at: at, updated_at: at };
      statuses.set(sha, [made, ...statuses.get(sha) ?? []]);
      return { status: 201, json: { url: `${repo.base()}/repos/${repo.full}/statuses/${sha}`, node_id: '', ...made, creator: { login: repo.login } } };
    }
    if (method === 'GET' && (p = /^\/commits\/(.+)\/status$/.exec(rest))) {
      const ref = decodeURIComponent(p[1]!);
      const sha = await commitOf(ref);
      if (!sha) throw unprocessable(`No commit found for SHA: ${ref}`);
      // The latest status of each context, newest first.
      const latest = (statuses.get(sha) ?? []).filter((s, i, all) => all.findIndex((t) => t.context === s.context) === i);
      const state = latest.some((s) => s.state === 'error' || s.state === 'failure') ? 'failure' : latest.length && latest.every((s) => s.state === 'success') ? 'success' : 'pending';
      return { status: 200, json: { state, statuses: latest, sha, total_count: latest.length, repository: repoJson(), commit_url: `${repo.base()}/repos/${repo.full}/commits/${sha}`, url: `${repo.base()}/repos/${repo.full}/commits/${sha}/status` } };
    }
    if (method === 'GET' && (p = /^\/issues\/(\d+)$/.exec(rest))) {
      const pull = pullAt(p[1]!);
      return { status: 200, json: { number: pull.number, title: pull.title, body: pull.body, state: pull.state, labels: pull.labels.map(labelJson), pull_request: { url: `${repo.base()}/repos/${repo.full}/pulls/${pull.number}` } } };
    }
    return undefined;
  }

  /**
   * GitHub's issue search over this repository's pull requests (on GitHub every pull request is an
   * issue): `label:`, `state:`, `is:` and `repo:` qualifiers and quoted phrases `in:body`.
   */
  async function search(q: string): Promise<{ status: number; json: unknown }> {
    const terms = q.match(/"[^"]*"|\S+/g) ?? [];
    const found: Pull[] = [];
    for (const pull of pulls.values()) {
      const ok = terms.every((t) => {
        const [key, value] = t.startsWith('"') ? ['phrase', t.slice(1, -1)] : t.includes(':') ? [t.slice(0, t.indexOf(':')), t.slice(t.indexOf(':') + 1)] : ['word', t];
        if (key === 'repo') return value.toLowerCase() === repo.full.toLowerCase();
        if (key === 'label') return pull.labels.includes(value);
        if (key === 'state') return pull.state === value;
        if (key === 'is') return value === 'pr' || value === 'pull-request' || value === pull.state || (value === 'merged' && pull.merged !== null);
        if (key === 'in') return true;
        return `${pull.title}\n${pull.body}`.toLowerCase().includes(value.toLowerCase());
      });
      if (ok) found.push(pull);
    }
    const items = await Promise.all(found.map(async (x) => ({ ...await pullJson(x), pull_request: { url: `${repo.base()}/repos/${repo.full}/pulls/${x.number}` } })));
    return { status: 200, json: { total_count: items.length, incomplete_results: false, items } };
  }

  return {
    answer,
    search,
    /** Open pull requests closed when their head branch is deleted, as GitHub closes them. */
    async branchDeleted(branch: string, lastSha: string) {
      for (const pull of pulls.values()) if (pull.state === 'open' && pull.head === branch) Object.assign(pull, { state: 'closed', closed: now(), updated: now(), headSha: lastSha });
    },
    beforeNextMerge(act: () => Promise<unknown>) { beforeMerge = act; },
    /** The pull requests, as GitHub lists them (newest first). */
    list: () => Promise.all([...pulls.values()].sort((a, b) => b.number - a.number).map(pullJson)),
  };
}
