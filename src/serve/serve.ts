import path from 'node:path';
import { announceServedStore, localFormsLines, localFormsOptions } from '../leads/serve-forms.ts';
import { startServer } from './server.ts';
import { serveOutDirOf } from '../output/layout.ts';
import { adoptProjectFolders } from '../output/old-folders.ts';

/** `site serve`: runs until interrupted. Returns the exit code. */
export async function serve(opts: { root: string; port: number; host: string; now?: Date; log: (s: string) => void; error: (s: string) => void }): Promise<number> {
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
  opts.log(`  content manager: ${server.url}/admin/ (writes into content/; each save checked as the build checks it)`);
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
