/**
 * The first code a build worker runs, before the build's own code is bundled: it loads the packages
 * that code imports (React, the native markdown parser), which took a worker a quarter of a
 * second or more, while esbuild bundles; then, told where the bundled worker module is, imports it.
 * Evaluated as a script (`new Worker(BOOT_SOURCE, { eval: true })`), so it needs no file of its own.
 * Packages are resolved from the project, as the bundle's imports are: the same modules, loaded once.
 */
export const BOOT_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createRequire } = require('node:module');
const { pathToFileURL } = require('node:url');
const resolve = createRequire(workerData.root + '/').resolve;
for (const name of workerData.preload) {
  try { import(pathToFileURL(resolve(name)).href).catch(() => {}); } catch {}
}
parentPort.on('message', (message) => {
  if (!message || !message.boot) return;
  globalThis[Symbol.for('site.worker.data')] = message.boot.data;
  import(message.boot.url).catch((error) => setImmediate(() => { throw error; }));
});
`;

/**
 * The packages the bundled worker imports that take longest to load; a name that does not resolve is
 * skipped. Each is resolved as require() resolves it: a package with an ES build beside its CommonJS
 * one (zod) would be loaded twice, once here and once by the code's import, so none such belongs here;
 * nor does a package the bundle compiles in (yaml, see code-packages.ts), which no import would use.
 */
export const PRELOAD = ['react', 'react-dom/server', 'satteri'];

/** Where the bundled worker module finds its data when started through BOOT_SOURCE (else in workerData). */
export const BOOT_DATA = Symbol.for('site.worker.data');
