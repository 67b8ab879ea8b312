// What an author reads when a save or an upload is refused: the build's own sentence (file, line,
// field and reason), without Decap's "Failed to persist entry: API_ERROR:" prefix, kept at the top
// of the page until dismissed or until the next save succeeds. Decap's own toast, which vanishes
// after seconds, points here (see locale.ts). The message takes its own strip above the content
// manager, which is pushed down under it rather than covered: floating over the page, it hid the
// editor's toolbar (its Publish button) on a narrow screen.

const WRITES = new Set(['persistEntry', 'persistMedia', 'deleteFile', 'deleteFiles']);
const UNREACHABLE = 'Nothing was saved: the content manager could not reach site serve. Is it still running?';

/** Set on <html> while a message is shown. */
const SHOWN = 'site-cms-message-shown';
/**
 * While shown, the page is a column: the message, then Decap's root (#nc-root), which takes the
 * height left and is the box Decap's editor fills (the editor is absolutely placed at the top of
 * its nearest positioned box, the whole page otherwise). Sticky, and above Decap's layers, the
 * message stays in sight over a list that scrolls under Decap's fixed header and over the media library.
 */
const LAYOUT = [
  `html.${SHOWN} body { margin: 0; height: 100vh; display: flex; flex-direction: column; }`,
  `html.${SHOWN} #nc-root { flex: 1 1 auto; min-height: 0; position: relative; }`,
  '.site-cms-message { position: sticky; top: 0; left: 0; z-index: 10000; flex: none; box-sizing: border-box; max-width: 100vw; padding: .75rem 1rem; background: #fff4f4; color: #5c0b0b; border-bottom: 2px solid #b3261e; font: 15px/1.5 system-ui, sans-serif; white-space: pre-line; }',
].join('\n');

let panel: HTMLElement | undefined;

/** The message at the top of the page, in place of any before it. */
export function show(text: string): void {
  if (!panel) {
    if (!document.getElementById(SHOWN)) {
      const style = document.createElement('style');
      style.id = SHOWN;
      style.textContent = LAYOUT;
      document.head.append(style);
    }
    panel = document.createElement('div');
    panel.setAttribute('role', 'alert');
    panel.className = 'site-cms-message';
    document.body.prepend(panel);
    document.documentElement.classList.add(SHOWN);
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
  panel?.remove();
  panel = undefined;
  document.documentElement.classList.remove(SHOWN);
}

const actionOf = (body: unknown): string | undefined => {
  try { return typeof body === 'string' ? (JSON.parse(body) as { action?: string }).action : undefined; } catch { return undefined; }
};

/** Watches the local API's writes: a refusal shows the server's message; a success clears it. */
export function reportRefusals(apiUrl: string): void {
  const api = new URL(apiUrl, location.href).pathname;
  const original = window.fetch.bind(window);
  window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const action = new URL(url, location.href).pathname === api ? actionOf(init?.body) : undefined;
    if (!action || !WRITES.has(action)) return original(input, init);
    let res: Response;
    try {
      res = await original(input, init);
    } catch (error) {
      show(UNREACHABLE);
      throw error;
    }
    if (res.ok) clear();
    else {
      const said = await res.clone().json().then((j: { error?: unknown }) => (typeof j?.error === 'string' ? j.error : undefined), () => undefined);
      show(`Not saved. ${said ?? `site serve answered ${res.status} ${res.statusText}`}`);
    }
    return res;
  };
}
