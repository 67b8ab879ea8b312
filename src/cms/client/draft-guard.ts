// A draft saved again through GitHub: before it writes, Decap's GitHub backend moves the draft's
// branch onto main's latest commit by writing each of the draft's files, whole, as the draft has it
// (its rebase copies files, not changes). A change someone else published to one of those files since
// the draft was made would be undone by that save, without a word, and again when the draft is
// published (the merge is then clean). So before the save, the draft is compared with main; if main
// changed any of its files since the draft left it, the save is refused, and the author is told how
// to keep both changes.

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

/** Decap's branch for an entry's draft (its editorial workflow's `cms/<collection>/<slug>`). */
export const draftBranch = (collection: string, slug: string): string => `cms/${collection}/${slug}`;

/**
 * The draft's files that main has changed since the draft left it: none when there is no draft yet
 * or main has not moved. Throws, with GitHub's status, when GitHub does not answer the comparison.
 */
export async function changedUnderDraft(place: DraftPlace): Promise<string[]> {
  const compare = async (from: string, to: string): Promise<Compare | undefined> => {
    const res = await fetch(`${place.api.replace(/\/$/, '')}/repos/${place.repo}/compare/${encodeURI(from)}...${encodeURI(to)}`, {
      headers: { authorization: `token ${place.token}`, accept: 'application/vnd.github+json' },
      cache: 'no-store',
    });
    if (res.status === 404) return undefined;
    if (!res.ok) throw new Error(`GitHub answered ${res.status} ${res.statusText} when the draft was compared with ${place.branch}`);
    return await res.json() as Compare;
  };
  const drafted = await compare(place.branch, place.draft);
  if (!drafted || drafted.merge_base_commit.sha === drafted.base_commit.sha) return [];
  const since = await compare(drafted.merge_base_commit.sha, drafted.base_commit.sha);
  const theirs = new Set((since?.files ?? []).flatMap((f) => [f.filename, ...(f.previous_filename ? [f.previous_filename] : [])]));
  return (drafted.files ?? []).map((f) => f.filename).filter((name) => theirs.has(name));
}

/** What the author reads when saving the draft again would undo another author's published change. */
export function undoRefusal(files: readonly string[]): string {
  return `Not saved: since this draft was saved, someone else published a change to ${files.join(', ')}, and saving the draft again now would undo it. The draft is kept as it was last saved, and your changes are still in the form. To keep both changes: copy your edits, choose Delete unpublished changes (the entry then shows their change), make your edits again, and save.`;
}
