import type { ServerResponse } from 'node:http';

/** The browser side: reload on a rebuild. Served as a file, so the CSP needs no exception for it. */
export const LIVE_RELOAD_JS = `const source = new EventSource('/__site/events');
source.addEventListener('reload', () => location.reload());

// An island that throws keeps its server HTML; in development it also says so, loudly.
window.addEventListener('site:island-error', (event) => {
  const { name, error } = event.detail;
  const box = document.createElement('div');
  box.setAttribute('role', 'alert');
  box.style.cssText = 'position:fixed;inset:1rem;z-index:2147483647;overflow:auto;background:#fff;color:#450a0a;border:3px solid #b91c1c;border-radius:.5rem;padding:1.25rem;font:14px/1.5 system-ui,sans-serif;box-shadow:0 10px 40px rgb(0 0 0/.3)';
  const title = document.createElement('h2');
  title.textContent = 'Unexpected Application Error!';
  const message = document.createElement('p');
  message.textContent = 'Island "' + name + '": ' + (error && error.message ? error.message : String(error));
  const stack = document.createElement('pre');
  stack.style.whiteSpace = 'pre-wrap';
  stack.textContent = error && error.stack ? error.stack : '';
  const close = document.createElement('button');
  close.type = 'button';
  close.textContent = 'Dismiss';
  close.addEventListener('click', () => box.remove());
  box.append(title, message, stack, close);
  document.body.append(box);
});
`;

/** The dev server's own paths (live reload, its events): no production host has them. */
export const DEV_PATH_PREFIX = '/__site/';

export const LIVE_RELOAD_TAG = `<script type="module" src="${DEV_PATH_PREFIX}live-reload.js"></script>`;

/** True when a page loads something from the dev server's own paths, i.e. `site serve` built it. */
export function carriesDevMarkup(html: string): boolean {
  return /<script\b[^>]*\bsrc\s*=\s*["']?\/__site\//i.test(html);
}

/** Server-sent events to every open page. */
export class ReloadChannel {
  private clients = new Set<ServerResponse>();

  connect(res: ServerResponse) {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    res.write('retry: 500\n\n');
    this.clients.add(res);
    res.on('close', () => this.clients.delete(res));
  }

  reload() {
    for (const res of this.clients) res.write(`event: reload\ndata: ${Date.now()}\n\n`);
  }

  close() {
    for (const res of this.clients) res.end();
    this.clients.clear();
  }
}
