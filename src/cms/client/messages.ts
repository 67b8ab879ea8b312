// What an author reads when a save or an upload is refused: the build's own sentence (file, line,
// field and reason), without Decap's "Failed to persist entry: API_ERROR:" prefix, or, through
// GitHub, GitHub's refusal in words an author can act on; kept at the top of the page until
// dismissed or until the next save succeeds. Decap's own toast, which vanishes
// after seconds, points here (see locale.ts). The message takes its own strip above the content
// manager, which is pushed down under it rather than covered, in every view: floating over the
// page, it hid the editor's toolbar (its Publish button) on a narrow screen, and the list's header
// and the media library's top.

const WRITES = new Set(['persistEntry', 'persistMedia', 'deleteFile', 'deleteFiles']);
const UNREACHABLE = 'Nothing was saved: the content manager could not reach site serve. Is it still running?';

/** Set on <html> while a message is shown. */
const SHOWN = 'site-cms-message-shown';
/** On <html>: the message's height, kept as it wraps (a phone's width, a longer message). */
const HEIGHT = '--site-cms-message-height';
/**
 * While shown, the message takes its own strip at the top and every view of the content manager
 * the space under it, so no control of Decap's is covered. The page is a column: the message, then
 * Decap's root (#nc-root), which takes the height left, scrolls by itself (so the list's sticky
 * header sticks under the message, not behind it) and is the box Decap's editor fills (the editor
 * is absolutely placed at the top of its nearest positioned box). What Decap lays over the whole
 * window, the media library and its other dialogs (react-modal's overlay, in .ReactModalPortal),
 * starts under the message.
 */
const LAYOUT = [
  `html.${SHOWN} body { margin: 0; height: 100vh; display: flex; flex-direction: column; }`,
  `html.${SHOWN} #nc-root { flex: 1 1 auto; min-height: 0; position: relative; overflow: auto; }`,
  `html.${SHOWN} .ReactModalPortal > div { margin-top: var(${HEIGHT}, 0px); }`,
  '.site-cms-message { position: relative; z-index: 10000; flex: none; box-sizing: border-box; max-width: 100vw; padding: .75rem 1rem; background: #fff4f4; color: #5c0b0b; border-bottom: 2px solid #b3261e; font: 15px/1.5 system-ui, sans-serif; white-space: pre-line; }',
].join('\n');

let panel: HTMLElement | undefined;
let sizes: ResizeObserver | undefined;

/** The message at the top of the page, in place of any before it. */
export function show(text: string): void {
  if (!panel) {
    if (!document.getElementById(SHOWN)) {
      const style = document.createElement('style');
      style.id = SHOWN;
      style.textContent = LAYOUT;
      document.head.append(style);
    }
    const shown = document.createElement('div');
    shown.setAttribute('role', 'alert');
    shown.className = 'site-cms-message';
    document.body.prepend(shown);
    document.documentElement.classList.add(SHOWN);
    sizes = new ResizeObserver(() => document.documentElement.style.setProperty(HEIGHT, `${shown.offsetHeight}px`));
    sizes.observe(shown);
    panel = shown;
  }
  const words = document.createElement('p');
  words.style.margin = '0 0 .5rem';
  words.textContent = text;
  const dismiss = document.createElement('button');
  dismiss.type = 'button';
  dismiss.textContent = 'Dismiss';
  dismiss.addEventListener('click', clear);
  panel.replaceChildren(words, dismiss);
}

export function clear(): void {
  sizes?.disconnect();
  sizes = undefined;
  panel?.remove();
  panel = undefined;
  document.documentElement.classList.remove(SHOWN);
  document.documentElement.style.removeProperty(HEIGHT);
}

const actionOf = (body: unknown): string | undefined => {
  try { return typeof body === 'string' ? (JSON.parse(body) as { action?: string }).action : undefined; } catch { return undefined; }
};

interface Watch {
  /** Whether a request is a write to watch. */
  writes(url: URL, init?: RequestInit): boolean;
  /** The message for a write that reached no server. */
  unreachable: string;
  /** The message for a write to `url` refused with `res`, whose JSON body's `message`/`error` is `said`. */
  refused(res: Response, said: string | undefined, url: URL): string;
  /** Whether a write that succeeded clears the message shown. */
  clearOnSuccess: boolean;
  /** The answer the content manager is handed for a refused write (the refusal itself unless given). */
  handOn?(res: Response, url: URL): Response;
}

/** Wraps fetch: a watched write that fails shows its message; one that succeeds may clear it. */
function watchWrites(watch: Watch): void {
  const original = window.fetch.bind(window);
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, location.href);
    if (!watch.writes(url, init)) return original(input, init);
    let res: Response;
    try {
      res = await original(input, init);
    } catch (error) {
      show(watch.unreachable);
      throw error;
    }
    if (res.ok) {
      if (watch.clearOnSuccess) clear();
      return res;
    }
    const said = await res.clone().json().then((j: { error?: unknown; message?: unknown }) => {
      const text = j?.error ?? j?.message;
      return typeof text === 'string' ? text : undefined;
    }, () => undefined);
    show(watch.refused(res, said, url));
    return watch.handOn?.(res, url) ?? res;
  };
}

/** Watches the local API's writes: a refusal shows the server's message; a success clears it. */
export function reportRefusals(apiUrl: string): void {
  const api = new URL(apiUrl, location.href).pathname;
  watchWrites({
    writes: (url, init) => url.pathname === api && WRITES.has(actionOf(init?.body) ?? ''),
    unreachable: UNREACHABLE,
    refused: (res, said) => `Not saved. ${said ?? `site serve answered ${res.status} ${res.statusText}`}`,
    clearOnSuccess: true,
  });
}

const KEPT = 'Your changes are still in the form.';
const MERGE = /\/pulls\/\d+\/merge$/;

/**
 * What an author reads when GitHub refuses a write: of a save (a blob, a tree, a commit, the draft's
 * branch made or moved, its pull request and labels), or of publishing (the pull request merged).
 * A branch that moved on since the save began (GitHub's 422 "Update is not a fast forward", or a
 * 409) says someone else saved; a draft that no longer merges (405) says someone else published a
 * change to the same lines; anything else gives GitHub's status and message. Nothing reached `main`
 * in any case.
 */
export function githubRefusal(status: number, statusText: string, said: string | undefined, path = ''): string {
  if (MERGE.test(path)) {
    if (status === 405) {
      return 'Not published: since this draft was saved, someone else published a change to the same lines, and publishing the draft now would undo it. The draft is kept as it is. To keep both changes: copy your edits, choose Delete unpublished changes (the entry then shows their change), make your edits again, and save.';
    }
    if (status === 409) return 'Not published: someone else changed this draft on GitHub while you were publishing it. Reload to see their change, then Publish again.';
  }
  if (status === 409 || (status === 422 && /fast.?forward/i.test(said ?? ''))) {
    return `Not saved: someone else saved a change on GitHub while you were saving this. Reload to see their change (copy your edits first: a reload loses them), or save again to keep your version of this entry over theirs. ${KEPT}`;
  }
  const answer = [String(status), statusText].filter(Boolean).join(' ');
  return MERGE.test(path)
    ? `Not published: GitHub refused to merge the draft (${answer}${said ? `: ${said}` : ''}). The draft is kept as it is; Publish again to retry.`
    : `Not saved: GitHub refused the save (${answer}${said ? `: ${said}` : ''}). Nothing was published. ${KEPT} Save again to retry.`;
}

/** Watches the writes Decap sends GitHub's API at `apiRoot` for a repository: a refusal is shown until dismissed or the next save. */
export function reportGitHubRefusals(apiRoot: string): void {
  const root = new URL(apiRoot);
  watchWrites({
    writes: (url, init) => url.origin === root.origin && url.pathname.startsWith(`${root.pathname.replace(/\/$/, '')}/repos/`) && !['GET', 'HEAD', 'OPTIONS'].includes((init?.method ?? 'GET').toUpperCase()),
    unreachable: `Not saved: GitHub could not be reached. Nothing was published. ${KEPT} Try again once you are back online.`,
    refused: (res, said, url) => githubRefusal(res.status, res.statusText, said, url.pathname),
    clearOnSuccess: false,
    // Decap answers a merge GitHub refuses as not mergeable (405) by writing the draft's files over
    // main's, which would undo the change published since: it is handed a refusal it stops at instead.
    handOn: (res, url) => (res.status === 405 && MERGE.test(url.pathname) ? new Response(res.body, { status: 409, statusText: 'Conflict', headers: res.headers }) : res),
  });
}
