// The addresses `site serve` is reached at, as a browser's Origin names them: the only pages whose
// posts it takes. A name that merely resolves here (DNS rebinding) is not among them.
import os from 'node:os';

/** Whether `host` (as --host gives it) is this machine alone. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** `http://<address>:<port>` for each address serve answers at: loopback's, its host's, and for a wildcard host each interface's and the machine's name. */
export function ownOrigins(host: string, port: number): string[] {
  const h = host.replace(/^\[|\]$/g, '');
  const names = new Set(['127.0.0.1', 'localhost', h]);
  if (h === '0.0.0.0' || h === '::') {
    for (const list of Object.values(os.networkInterfaces())) for (const a of list ?? []) names.add(a.address);
    names.add(os.hostname());
    names.add(`${os.hostname()}.local`);
  }
  return [...names].map((n) => `http://${n.includes(':') ? `[${n}]` : n}:${port}`);
}
