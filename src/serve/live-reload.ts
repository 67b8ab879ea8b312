import type { ServerResponse } from 'node:http';

/** The browser side: reload on a rebuild. Served as a file, so the CSP needs no exception for it. */
export const LIVE_RELOAD_JS = `const source = new EventSource('/__site/events');
source.addEventListener('reload', () => location.reload());
`;

export const LIVE_RELOAD_TAG = '<script type="module" src="/__site/live-reload.js"></script>';

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
