import path from 'node:path';
import { announceServedStore, localFormsLines, localFormsOptions } from '../leads/serve-forms.ts';
import { startServer } from './server.ts';
import { isLoopback } from './own-origins.ts';
import { serveOutDirOf } from '../output/layout.ts';
import { adoptProjectFolders } from '../output/old-folders.ts';

/** `site serve`: runs until interrupted. Returns the exit code. */
export async function serve(opts: { root: string; port: number; host: string; now?: Date; cmsWrites?: boolean; log: (s: string) => void; error: (s: string) => void }): Promise<number> {
  let server;
  // The local leads of an older version (.site-data/) moved into .site/data/ before the form backend opens them.
  await adoptProjectFolders(opts.root, opts.error);
  try {
    server = await startServer({ ...opts, log: opts.log, forms: true, formsOptions: await localFormsOptions(opts.root), formLog: (entry) => opts.log(`form: ${JSON.stringify(entry)}`),
      // Requests are answered from here on: from the last build serve made, if any, while it builds.
      listening: (url) => opts.log(`listening on ${url}, building…`) });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    opts.error(code === 'EADDRINUSE' ? `port ${opts.port} is in use: pass --port with another number` : `could not start: ${String(error)}`);
    return 1;
  }
  opts.log(`serving ${server.url} from ${path.relative(process.cwd(), serveOutDirOf(opts.root))}/, not dist/  (watching content/, templates/, islands/; Ctrl+C to stop)`);
  if (server.forms) for (const line of localFormsLines(server.forms)) opts.log(line);
  opts.log(cmsLine(server.url, opts.host, server.cmsWrites));
  const unannounce = server.forms ? await announceServedStore(opts.root, server.forms) : undefined;
  await new Promise<void>((done) => {
    const stop = () => { process.off('SIGINT', stop); process.off('SIGTERM', stop); done(); };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  await unannounce?.();
  await server.close();
  return 0;
}

/** What serve says of its content manager as it starts: where it is, and whether it saves. */
export function cmsLine(url: string, host: string, writes: boolean): string {
  if (writes) return `  content manager: ${url}/admin/ (writes into content/; each save checked as the build checks it)${isLoopback(host) ? '' : `; anyone who can reach ${host} can save`}`;
  return `  content manager: ${url}/admin/ is read-only: serve listens on ${host}, beyond this machine; pass --cms-writes to let it save into content/`;
}
