// An SES-compatible server (aws-ses-v2-local) inside this process on 127.0.0.1, for
// `site serve`, the tests and the benchmark. Its web viewer lists every e-mail it received.
// The package keeps its store in a module-level variable: servers started in one process share it.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as sesLocal from 'aws-ses-v2-local';

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
function startFunction(): StartServer {
  const candidate: unknown = (sesLocal as { default?: unknown }).default;
  if (typeof candidate === 'function') return candidate as StartServer;
  const nested = (candidate as { default?: unknown } | undefined)?.default;
  if (typeof nested === 'function') return nested as StartServer;
  throw new Error('aws-ses-v2-local: could not find its server function (package layout changed?)');
}

/** Starts the server; port 0 (the default) lets the OS choose a free one. */
export async function startLocalSes(options: { port?: number } = {}): Promise<LocalSes> {
  const host = '127.0.0.1';
  const server = await startFunction()({ host, port: options.port ?? 0 });
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://${host}:${port}`;
  return {
    endpoint,
    viewerUrl: `${endpoint}/`,
    storeUrl: `${endpoint}/store`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // The SDK keeps connections alive; without this close() waits for them to time out.
        server.closeAllConnections();
      }),
  };
}
