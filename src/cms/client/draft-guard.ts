// A save through GitHub that would write over another author's published change, without a word:
// - The first save of a draft writes the entry's file as the form has it onto main's latest commit.
//   If someone else published a change to that file since the entry was opened, the draft undoes it,
//   and so does publishing the draft (the merge is clean).
// - Saving a draft again first moves its branch onto main's latest commit, and Decap's GitHub
//   backend does that by writing each of the draft's files, whole, as the draft has it (its rebase
//   copies files, not changes): a change someone else published to one of them since is undone.
// So before a save, the entry is checked against main; a save that would undo a change is refused,
// and the author is told how to keep both changes.

/** Where the draft is: GitHub's API, the repository, its main branch, the draft's branch, and the author's token. */
export interface DraftPlace {
  api: string;
  repo: string;
  branch: string;
  draft: string;
  token: string;
}

interface Compare {
  base_commit: { sha: string };
  merge_base_commit: { sha: string };
  files?: Array<{ filename: string; previous_filename?: string }>;
}

/** The entry as the form holds it: its file, the file's text as it was opened (absent for a new entry). */
export interface OpenedEntry {
  path: string;
  raw?: string;
}

/** Decap's branch for an entry's draft (its editorial workflow's `cms/<collection>/<slug>`). */
export const draftBranch = (collection: string, slug: string): string => `cms/${collection}/${slug}`;

/** Git's name for a file's bytes (the sha of its blob), as GitHub's trees list it. */
async function blobSha(text: string): Promise<string> {
  const bytes = new TextEncoder().encode(text);
  const header = new TextEncoder().encode(`blob ${bytes.byteLength}\0`);
  const whole = new Uint8Array(header.byteLength + bytes.byteLength);
  whole.set(header);
  whole.set(bytes, header.byteLength);
  return [...new Uint8Array(await crypto.subtle.digest('SHA-1', whole))].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * What saving `entry` as a draft would undo: the files someone else changed on main since the draft
 * left it (a draft saved again), or since the entry was opened (its first save); none otherwise.
 * Throws, with GitHub's status, when GitHub does not answer.
 */
export async function changedUnderDraft(place: DraftPlace, entry: OpenedEntry): Promise<{ undone: string[]; draft: boolean }> {
  const get = async <T>(path: string): Promise<T | undefined> => {
    const res = await fetch(`${place.api.replace(/\/$/, '')}/repos/${place.repo}/${path}`, {
      headers: { authorization: `token ${place.token}`, accept: 'application/vnd.github+json' },
      cache: 'no-store',
    });
    if (res.status === 404) return undefined;
    if (!res.ok) throw new Error(`GitHub answered ${res.status} ${res.statusText} when the entry was checked against ${place.branch}`);
    return await res.json() as T;
  };
  const compare = (from: string, to: string) => get<Compare>(`compare/${encodeURI(from)}...${encodeURI(to)}`);
  const drafted = await compare(place.branch, place.draft);
  if (!drafted) {
    // No draft yet: the file on main must still be the one the form opened.
    if (entry.raw === undefined) return { undone: [], draft: false };
    const slash = entry.path.lastIndexOf('/');
    const folder = await get<{ tree: Array<{ path: string; sha: string }> }>(`git/trees/${encodeURI(place.branch)}:${encodeURIComponent(entry.path.slice(0, Math.max(0, slash)))}`);
    const now = folder?.tree.find((f) => f.path === entry.path.slice(slash + 1))?.sha;
    return { undone: now !== undefined && now !== await blobSha(entry.raw) ? [entry.path] : [], draft: false };
  }
  if (drafted.merge_base_commit.sha === drafted.base_commit.sha) return { undone: [], draft: true };
  const since = await compare(drafted.merge_base_commit.sha, drafted.base_commit.sha);
  const theirs = new Set((since?.files ?? []).flatMap((f) => [f.filename, ...(f.previous_filename ? [f.previous_filename] : [])]));
  return { undone: (drafted.files ?? []).map((f) => f.filename).filter((name) => theirs.has(name)), draft: true };
}

/** What the author reads when the save would undo another author's published change: of a draft saved again, or of an entry's first save. */
export function undoRefusal(files: readonly string[], draft: boolean): string {
  return draft
    ? `Not saved: since this draft was saved, someone else published a change to ${files.join(', ')}, and saving the draft again now would undo it. The draft is kept as it was last saved, and your changes are still in the form. To keep both changes: copy your edits, choose Delete unpublished changes (the entry then shows their change), make your edits again, and save.`
    : `Not saved: since you opened this entry, someone else published a change to ${files.join(', ')}, and saving now would undo it. Nothing was written, and your changes are still in the form. To keep both changes: copy your edits, reload the page (the entry then shows their change), make your edits again, and save.`;
}
