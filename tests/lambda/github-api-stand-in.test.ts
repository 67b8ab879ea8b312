// The stand-in of GitHub's REST API (github-api-stand-in.ts) that the content manager's browser test
// saves through: it takes a save as Decap makes one (a blob, a tree on the branch's commit, a commit,
// the branch moved to it), and refuses what GitHub refuses, as GitHub answers it.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, startGitHubApiStandIn, type GitHubApiStandIn } from './github-api-stand-in.ts';

let root: string;
let gitDir: string;
let api: GitHubApiStandIn;
const TOKEN = 'gho_issued<script>';

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'github-api-'));
  gitDir = path.join(root, 'site.git');
  const env = { GIT_AUTHOR_NAME: 'Owner', GIT_AUTHOR_EMAIL: 'owner@example.com', GIT_COMMITTER_NAME: 'Owner', GIT_COMMITTER_EMAIL: 'owner@example.com' };
  await git(gitDir, ['init', '-q', '--bare', '--initial-branch=main']);
  const blob = (await git(gitDir, ['hash-object', '-w', '--stdin'], { input: 'title: About Us\n' })).out.toString().trim();
  await git(gitDir, ['update-index', '--add', '--cacheinfo', `100644,${blob},content/pages/about.yaml`], { env: { GIT_INDEX_FILE: path.join(root, 'index') } });
  const tree = (await git(gitDir, ['write-tree'], { env: { GIT_INDEX_FILE: path.join(root, 'index') } })).out.toString().trim();
  const commit = (await git(gitDir, ['commit-tree', tree, '-m', 'start'], { env })).out.toString().trim();
  await git(gitDir, ['update-ref', 'refs/heads/main', commit]);
  api = await startGitHubApiStandIn({ repo: 'dundee-data/site', gitDir, tokenIsGood: (t) => t === TOKEN, user: { login: 'an-author', id: 7, name: 'An Author', email: '7+an-author@users.noreply.github.com' } });
});
afterAll(async () => {
  await api?.close();
  await rm(root, { recursive: true, force: true });
});

const call = async (method: string, at: string, body?: unknown, token = TOKEN) => {
  const res = await fetch(`${api.url}/repos/dundee-data/site${at}`, { method, headers: { authorization: `token ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, json: await res.json() as Record<string, unknown> & { sha?: string; message?: string } };
};

describe("the stand-in of GitHub's REST API", () => {
  it('takes a save as Decap makes one and moves main forward; refuses a bad token, unknown names, missing objects, a stale or backward move', async () => {
    expect((await call('GET', '', undefined, 'gho_someone-else')).status).toBe(401);
    expect((await call('GET', '/../other')).status).toBe(404);
    expect((await call('GET', '/branches/no-such-branch')).status).toBe(404);
    expect((await call('GET', '/git/trees/main:content%2Fnothing')).status).toBe(404);
    expect((await call('GET', `/git/blobs/${'0'.repeat(40)}`)).status).toBe(404);

    const main = (await call('GET', '/branches/main')).json as { commit: { sha: string } };
    const listed = (await call('GET', '/git/trees/main:content%2Fpages')).json as { tree: Array<{ path: string; sha: string }> };
    const about = listed.tree.find((f) => f.path === 'about.yaml')!;
    expect(Buffer.from(String((await call('GET', `/git/blobs/${about.sha}`)).json.content), 'base64').toString()).toBe('title: About Us\n');

    const blob = await call('POST', '/git/blobs', { content: Buffer.from('title: About Them\n').toString('base64'), encoding: 'base64' });
    expect(blob.status).toBe(201);
    expect((await call('POST', '/git/trees', { base_tree: main.commit.sha, tree: [{ path: 'content/pages/about.yaml', mode: '100644', type: 'blob', sha: 'f'.repeat(40) }] })).status).toBe(422);
    const tree = await call('POST', '/git/trees', { base_tree: main.commit.sha, tree: [{ path: 'content/pages/about.yaml', mode: '100644', type: 'blob', sha: blob.json.sha }] });
    expect((await call('POST', '/git/commits', { message: 'x', tree: 'e'.repeat(40), parents: [main.commit.sha] })).json.message).toBe('Tree SHA does not exist');
    expect((await call('POST', '/git/commits', { message: 'x', tree: tree.json.sha, parents: ['e'.repeat(40)] })).json.message).toBe('Parent SHA does not exist or is not a commit object');
    const commit = await call('POST', '/git/commits', { message: 'Update Pages “about”', tree: tree.json.sha, parents: [main.commit.sha] });
    expect(commit.json).toMatchObject({ author: { name: 'An Author', email: '7+an-author@users.noreply.github.com' }, parents: [{ sha: main.commit.sha }] });
    // A commit beside main (its parent main's old commit) is no fast-forward once main has moved.
    const beside = await call('POST', '/git/commits', { message: 'beside', tree: tree.json.sha, parents: [main.commit.sha] });

    expect((await call('PATCH', '/git/refs/heads/main', { sha: commit.json.sha, force: false })).status).toBe(200);
    expect((await call('GET', '/branches/main')).json).toMatchObject({ commit: { sha: commit.json.sha } });
    expect((await call('PATCH', '/git/refs/heads/main', { sha: main.commit.sha, force: false })).json).toMatchObject({ message: 'Update is not a fast forward' });
    expect((await call('PATCH', '/git/refs/heads/main', { sha: beside.json.sha })).status).toBe(422);
    expect((await call('PATCH', '/git/refs/heads/no-such-branch', { sha: commit.json.sha })).json).toMatchObject({ message: 'Reference does not exist' });
    expect((await git(gitDir, ['show', 'main:content/pages/about.yaml'])).out.toString()).toBe('title: About Them\n');
  });
});
