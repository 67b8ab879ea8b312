// The Cache-Control each file is stored with. A file whose name carries its content hash never
// changes under that name, so browsers may keep it a year without asking; everything else (the
// HTML above all, whose URLs never change) must be revalidated so a deploy shows at once.

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'public, max-age=0, must-revalidate';

// esbuild names bundles name-XXXXXXXX.js (8 base32 characters); images are name-<10 hex>.ext;
// share cards, og/name-<12 hex>.png.
const HASHED_NAME = /-[A-Za-z0-9]{8,}\.[A-Za-z0-9]+$/;

// The search index's own files are named by their content (pagefind.en_<10 hex>.pf_meta,
// fragment/en_<7 hex>.pf_fragment, index/…, filter/…); its loader, worker, WebAssembly and entry
// file (pagefind.js, pagefind-worker.js, wasm.en.pagefind, pagefind-entry.json) keep fixed names
// and name the current hashed files, so they are revalidated like the HTML.
const SEARCH_HASHED = /^pagefind\/(?:pagefind\.[a-z-]+_[0-9a-f]{7,}\.pf_meta|(?:fragment|index|filter)\/[a-z-]+_[0-9a-f]{7,}\.pf_(?:fragment|index|filter))$/;

/** Whether a key (relative to the site root, no leading slash) is a content-hashed asset. */
export function isHashedAsset(key: string): boolean {
  if (key.startsWith('pagefind/')) return SEARCH_HASHED.test(key);
  return (key.startsWith('assets/') || key.startsWith('og/')) && HASHED_NAME.test(key.slice(key.lastIndexOf('/') + 1));
}

export function cacheControl(key: string): string {
  return isHashedAsset(key) ? IMMUTABLE : REVALIDATE;
}
