// What an author reads when a save or an upload is refused: the build's own sentence (file, line,
// field and reason), without Decap's "Failed to persist entry: API_ERROR:" prefix, kept at the top
// of the page until dismissed or until the next save succeeds. Decap's own toast, which vanishes
// after seconds, points here (see locale.ts).

const WRITES = new Set(['persistEntry', 'persistMedia', 'deleteFile', 'deleteFiles']);
const UNREACHABLE = 'Nothing was saved: the content manager could not reach site serve. Is it still running?';

let panel: HTMLElement | undefined;

/** The message at the top of the page, in place of any before it. */
export function show(text: string): void {
  if (!panel) {
    panel = document.createElement('div');
    panel.setAttribute('role', 'alert');
    panel.className = 'site-cms-message';
    panel.style.cssText = 'position:fixed;top:0;left:50%;transform:translateX(-50%);z-index:10000;max-width:min(56rem,96vw);margin-top:.5rem;padding:.75rem 1rem;background:#fff4f4;color:#5c0b0b;border:2px solid #b3261e;border-radius:6px;font:15px/1.5 system-ui,sans-serif;white-space:pre-line;box-shadow:0 4px 16px rgb(0 0 0/.2)';
    document.body.append(panel);
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
