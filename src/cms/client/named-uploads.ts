// Decap holds an image chosen in an entry until the entry is saved, and sends it with every save
// after, even once the author has removed it or chosen another: one refused upload (an SVG with
// script, a name the site refuses) refused every later save until the page was reloaded. site
// serve's backend here is Decap's proxy backend sending only the uploads the entry still names.
import type CMS from 'decap-cms-app';

interface Upload { path: string }
interface DataFile { raw?: unknown }
interface Entry { dataFiles: DataFile[]; assets: Upload[] }
interface Backend { persistEntry(entry: Entry, options: unknown): Promise<unknown> }

/** The name the backend is registered under (Decap keeps 'proxy' for its own). */
export const SERVE_BACKEND = 'site-serve';

/** The uploads whose public path (`/images/x.png` for `content/images/x.png`) the entry's files name. */
export function namedUploads<T extends Upload>(assets: readonly T[], dataFiles: readonly DataFile[], mediaFolder: string, publicFolder: string): T[] {
  const text = dataFiles.map((f) => (typeof f.raw === 'string' ? f.raw : '')).join('\n');
  const folder = `${mediaFolder.replace(/\/$/, '')}/`;
  return assets.filter((a) => a.path.startsWith(folder) && text.includes(`${publicFolder.replace(/\/$/, '')}/${a.path.slice(folder.length)}`));
}

export function registerServeBackend(cms: typeof CMS, mediaFolder: string, publicFolder: string): void {
  const proxy = cms.getBackend('proxy') as unknown as { init(...args: unknown[]): Backend } | undefined;
  if (!proxy) throw new Error('Decap CMS has no proxy backend');
  // Decap constructs a backend with `new`; a constructor returning an object gives that object.
  function ServeBackend(...args: unknown[]): Backend {
    const backend = proxy!.init(...args);
    const persist = backend.persistEntry.bind(backend);
    backend.persistEntry = (entry, options) => persist({ ...entry, assets: namedUploads(entry.assets, entry.dataFiles, mediaFolder, publicFolder) }, options);
    return backend;
  }
  cms.registerBackend(SERVE_BACKEND, ServeBackend as never);
}
