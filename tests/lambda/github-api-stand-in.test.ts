// The stand-in of GitHub's REST API (github-api-stand-in.ts) that the content manager's browser test
// saves through: it takes a save as Decap makes one (a blob, a tree on the branch's commit, a commit,
// the branch moved to it), and a draft as Decap's editorial workflow makes, reads and publishes one
// (a branch, a pull request and its labels, a comparison, the combined status, a merge), and refuses
// what GitHub refuses, as GitHub answers it.
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
  const text = await res.text();
  return { status: res.status, json: (text ? JSON.parse(text) : {}) as Record<string, unknown> & { sha?: string; message?: string } };
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

  it('keeps a draft as a branch and a pull request, and merges it only at the head it was shown and without conflicts (409, 405), as GitHub does', async () => {
    const main = (await call('GET', '/branches/main')).json as { commit: { sha: string } };
    const commitWith = async (title: string, parent: string) => {
      const blob = await call('POST', '/git/blobs', { content: Buffer.from(`title: ${title}\n`).toString('base64'), encoding: 'base64' });
      const tree = await call('POST', '/git/trees', { base_tree: parent, tree: [{ path: 'content/pages/about.yaml', mode: '100644', type: 'blob', sha: blob.json.sha }] });
      return String((await call('POST', '/git/commits', { message: title, tree: tree.json.sha, parents: [parent] })).json.sha);
    };
    const draft = await commitWith('About Ours', main.commit.sha);
    expect((await call('POST', '/git/refs', { ref: 'refs/heads/cms/pages/about', sha: draft })).status).toBe(201);
    expect((await call('POST', '/git/refs', { ref: 'refs/heads/cms/pages/about', sha: draft })).json.message).toBe('Reference already exists');
    expect((await call('POST', '/git/refs', { ref: 'refs/heads/cms', sha: draft })).json.message).toBe('Reference update failed');
    expect((await call('POST', '/pulls', { title: 'x', head: 'dundee-data:main', base: 'main' })).status).toBe(422);

    const pr = await call('POST', '/pulls', { title: 'Update about', body: '', head: 'dundee-data:cms/pages/about', base: 'main' });
    expect(pr.json).toMatchObject({ number: 1, state: 'open', head: { ref: 'cms/pages/about', sha: draft }, base: { ref: 'main' } });
    expect((await call('POST', '/pulls', { title: 'again', head: 'dundee-data:cms/pages/about', base: 'main' })).json).toMatchObject({ message: 'Validation Failed', errors: [{ message: 'A pull request already exists for dundee-data:cms/pages/about.' }] });
    expect((await call('PUT', '/issues/1/labels', { labels: ['decap-cms/draft'] })).status).toBe(200);
    expect((await call('PUT', '/issues/9/labels', { labels: ['decap-cms/draft'] })).status).toBe(404);
    const listed = await fetch(`${api.url}/repos/dundee-data/site/pulls?head=dundee-data:cms/pages/about&base=main&state=open&per_page=100`, { headers: { authorization: `token ${TOKEN}` } });
    expect(await listed.json()).toMatchObject([{ number: 1, labels: [{ name: 'decap-cms/draft' }], head: { repo: { fork: false } } }]);
    const compared = await call('GET', '/compare/main...dundee-data:cms/pages/about');
    expect(compared.json).toMatchObject({ status: 'ahead', ahead_by: 1, commits: [{ sha: draft }], files: [{ filename: 'content/pages/about.yaml', status: 'modified', patch: expect.stringContaining('+title: About Ours') }] });

    // The preview's status: GitHub's four states only, on a commit that exists; the latest of each context is the one read.
    expect((await call('POST', `/statuses/${draft}`, { state: 'done', context: 'site/preview' })).status).toBe(422);
    expect((await call('POST', `/statuses/${'e'.repeat(40)}`, { state: 'success', context: 'site/preview' })).status).toBe(422);
    await call('POST', `/statuses/${draft}`, { state: 'pending', context: 'site/preview' });
    expect((await call('POST', `/statuses/${draft}`, { state: 'success', context: 'site/preview', target_url: 'https://pr-1.preview.example.com/' })).status).toBe(201);
    expect((await call('GET', `/commits/${draft}/status`)).json).toMatchObject({ state: 'success', total_count: 1, statuses: [{ context: 'site/preview', state: 'success', target_url: 'https://pr-1.preview.example.com/' }] });

    // Merged only at the head it was shown: a newer head is 409; a base that now conflicts is 405, and main stays.
    const newer = await commitWith('About Ours Too', draft);
    expect((await call('PATCH', '/git/refs/heads/cms%2Fpages%2Fabout', { sha: newer, force: true })).status).toBe(200);
    expect((await call('PUT', '/pulls/1/merge', { sha: draft, merge_method: 'merge' })).json.message).toBe('Head branch was modified. Review and try the merge again.');
    const before = (await call('GET', '/branches/main')).json as { commit: { sha: string } };
    const theirs = await commitWith('About Theirs', before.commit.sha);
    expect((await call('PATCH', '/git/refs/heads/main', { sha: theirs })).status).toBe(200);
    const refused = await call('PUT', '/pulls/1/merge', { sha: newer, merge_method: 'merge' });
    expect([refused.status, refused.json.message]).toEqual([405, 'Pull Request is not mergeable']);
    expect((await git(gitDir, ['rev-parse', 'main'])).out.toString().trim()).toBe(theirs);

    // Made again on their change, it merges: a merge commit on main, the pull request closed, its branch deleted.
    const again = await commitWith('About Ours', theirs);
    await call('PATCH', '/git/refs/heads/cms%2Fpages%2Fabout', { sha: again, force: true });
    const merged = await call('PUT', '/pulls/1/merge', { sha: again, merge_method: 'merge' });
    expect(merged.json).toMatchObject({ merged: true, message: 'Pull Request successfully merged' });
    expect((await git(gitDir, ['log', '-1', '--format=%P', 'main'])).out.toString().trim()).toBe(`${theirs} ${again}`);
    expect((await call('GET', '/pulls/1')).json).toMatchObject({ state: 'closed', merged: true });
    expect((await call('PUT', '/pulls/1/merge', { sha: again })).status).toBe(405);
    expect((await call('DELETE', '/git/refs/heads/cms%2Fpages%2Fabout')).status).toBe(204);
    expect((await call('DELETE', '/git/refs/heads/cms%2Fpages%2Fabout')).json.message).toBe('Reference does not exist');
  });
});
