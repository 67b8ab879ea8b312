// An SES-compatible server (aws-ses-v2-local) inside this process on 127.0.0.1, for
// `site serve`, the tests and the benchmark. Its web viewer lists every e-mail it received.
// The package keeps its store in a module-level variable: servers started in one thread share it.
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';

export interface LocalSes {
  /** Endpoint to give the SES client. */
  endpoint: string;
  /** Web page listing received e-mails. */
  viewerUrl: string;
  /** JSON of received e-mails: GET returns { emails }, POST {endpoint}/clear-store empties it. */
  storeUrl: string;
  close(): Promise<void>;
}

type StartServer = (config?: { host?: string; port?: number }) => Promise<Server>;

// The package is CommonJS with `exports.default`. Node's ESM loader (and tsx) hand us the whole
// exports object as the default, a bundler hands us exports.default; accept either.
async function startFunction(): Promise<StartServer> {
  const sesLocal: unknown = await import('aws-ses-v2-local');
  const candidate: unknown = (sesLocal as { default?: unknown }).default;
  if (typeof candidate === 'function') return candidate as StartServer;
  const nested = (candidate as { default?: unknown } | undefined)?.default;
  if (typeof nested === 'function') return nested as StartServer;
  throw new Error('aws-ses-v2-local: could not find its server function (package layout changed?)');
}

const HOST = '127.0.0.1';

/**
 * Starts the server; port 0 (the default) lets the OS choose a free one. With `ownThread`, in a
 * worker thread of its own: loading the package and its mail parser holds a thread for half a second
 * (`site serve`, whose thread answers saves and requests meanwhile, asks for it).
 */
export async function startLocalSes(options: { port?: number; ownThread?: boolean } = {}): Promise<LocalSes> {
  if (options.ownThread) return startOnOwnThread(options.port ?? 0);
  const server = await (await startFunction())({ host: HOST, port: options.port ?? 0 });
  const { port } = server.address() as AddressInfo;
  return localSes(port, () =>
    new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      // The SDK keeps connections alive; without this close() waits for them to time out.
      server.closeAllConnections();
    }));
}

function localSes(port: number, close: () => Promise<void>): LocalSes {
  const endpoint = `http://${HOST}:${port}`;
  return { endpoint, viewerUrl: `${endpoint}/`, storeUrl: `${endpoint}/store`, close };
}

/** The worker: requires the package (CommonJS, its path resolved by the caller), starts it, says its port; closes on 'close'. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let server;
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  if (!server) return parentPort.close();
  server.close(() => parentPort.close());
  server.closeAllConnections();
});
new Promise((resolve) => {
  const mod = require(workerData.entry);
  const start = [mod, mod.default, mod.default && mod.default.default].find((f) => typeof f === 'function');
  if (!start) throw new Error('aws-ses-v2-local: could not find its server function (package layout changed?)');
  resolve(start({ host: workerData.host, port: workerData.port }));
}).then((started) => {
  server = started;
  parentPort.postMessage({ port: server.address().port });
}, (error) => parentPort.postMessage({ error: error && error.stack ? error.stack : String(error) }));
`;

async function startOnOwnThread(port: number): Promise<LocalSes> {
  const entry = createRequire(import.meta.url).resolve('aws-ses-v2-local');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { entry, host: HOST, port } });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const started = await new Promise<{ port?: number; error?: string }>((resolve) => {
    worker.once('message', resolve);
    worker.once('error', (error) => resolve({ error: error.stack ?? String(error) }));
    worker.once('exit', (code) => resolve({ error: `the local SES thread exited with ${code} before it listened` }));
  });
  if (started.port === undefined) {
    await worker.terminate();
    throw new Error(`aws-ses-v2-local could not start: ${started.error}`);
  }
  return localSes(started.port, async () => { worker.postMessage('close'); await exited; });
}
