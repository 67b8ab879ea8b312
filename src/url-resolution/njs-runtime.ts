// The CloudFront functions the build emits, run in njs (Debian's /usr/bin/njs, the nginx JavaScript
// engine CloudFront Functions are built on), file as written, with a stand-in for the runtime's
// `cloudfront` module written for njs. Many events go through one njs process (a batch), each
// handled in turn and answered as JSON with the store reads it made.
//
// The stand-in's `kvs()` handle is never more lenient than the one AWS documents for
// cloudfront-js-2.0 ("Helper methods for key value stores"): get(key, { format }) resolves to the
// value of a key the store holds ('string' by default, or 'json') and rejects for a key it does
// not hold, with an error whose text the documentation does not fix (so the function may not read
// it); exists(key) resolves to true or false; meta() to the store's creation and update times and
// key count. It also rejects what the service would: a key that is not a string or is longer
// than the store's 512 bytes, and a format it does not know ('bytes', which would be a Buffer, is
// not needed here and refused). Tests make other failures happen on purpose (`failGet`, `failExists`).
//
// Where njs 0.7.9 and the documented runtime differ: both refuse for…of, spread, destructuring,
// default parameters, classes and generators, and njs refuses `await` in a call's arguments ('await
// in arguments not supported'), as the page does ("async arguments ... are not supported"). njs
// also runs some syntax the page does not list (shorthand and computed properties, method
// shorthand, `??`, async function expressions); the build's own check
// (src/url-resolution/function-runtime.ts) holds the functions to the page's list, and njs shows
// that what is left parses and runs.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const NJS = process.env.NJS_PATH ?? '/usr/bin/njs';

export interface Value { value: string; multiValue?: Array<{ value: string }> }
export interface CfRequest { method?: string; uri: string; querystring?: Record<string, Value>; headers: Record<string, Value>; cookies?: Record<string, Value> }
export interface CfResponse { statusCode: number; statusDescription?: string; headers?: Record<string, Value> }

/** What the function returned for one event (or the error it threw), and how many store calls it made. */
export interface Outcome<T = CfRequest | CfResponse> { result: T; error?: string; reads: number }

export interface StandInStore {
  entries: Iterable<[string, string]>;
  /** Keys whose get() rejects with a failure that is not a missing key ('*': every key). */
  failGet?: readonly string[];
  /** Keys whose exists() rejects ('*': every key). */
  failExists?: readonly string[];
}

/** The stand-in for the runtime's `cloudfront` module, as an njs module. */
function standInModule(store: StandInStore): string {
  const data: Record<string, string> = {};
  for (const [k, v] of store.entries) data[k] = v;
  return `var data = ${JSON.stringify(data)};
var failGet = ${JSON.stringify(store.failGet ?? [])};
var failExists = ${JSON.stringify(store.failExists ?? [])};
var calls = 0;
function failing(list, key) { return list.indexOf('*') !== -1 || list.indexOf(key) !== -1; }
function badKey(key) {
  if (typeof key !== 'string') return new TypeError('key must be a string');
  if (key.length === 0 || Buffer.byteLength(key) > 512) return new Error('key must be 1 to 512 bytes');
  return null;
}
var handle = {
  get: function (key, options) {
    calls++;
    var format = options && options.format !== undefined ? options.format : 'string';
    if (format !== 'string' && format !== 'json') return Promise.reject(new TypeError('unknown format: ' + format));
    var bad = badKey(key);
    if (bad) return Promise.reject(bad);
    if (failing(failGet, key)) return Promise.reject(new Error('the store could not be read'));
    if (!Object.prototype.hasOwnProperty.call(data, key)) return Promise.reject(new Error('no such key'));
    return Promise.resolve(format === 'json' ? JSON.parse(data[key]) : data[key]);
  },
  exists: function (key) {
    calls++;
    var bad = badKey(key);
    if (bad) return Promise.reject(bad);
    if (failing(failExists, key)) return Promise.reject(new Error('the store could not be read'));
    return Promise.resolve(Object.prototype.hasOwnProperty.call(data, key));
  },
  meta: function () {
    calls++;
    return Promise.resolve({ creationDateTime: '2026-01-01T00:00:00Z', lastUpdatedDateTime: '2026-01-01T00:00:00Z', keyCount: Object.keys(data).length });
  }
};
export default { kvs: function () { return handle; }, calls: function () { return calls; } };
`;
}

function driver(events: readonly unknown[], outFile: string): string {
  return `
var __events = JSON.parse(${JSON.stringify(JSON.stringify(events))});
async function __run() {
  var out = [];
  for (var i = 0; i < __events.length; i++) {
    var before = __standIn.calls();
    var r;
    try {
      var v = await handler(__events[i]);
      r = { result: v };
    } catch (e) {
      r = { error: String(e) };
    }
    r.reads = __standIn.calls() - before;
    out.push(r);
  }
  // Not console.log, which cuts a line at 2,048 characters in njs 0.7.9.
  __fs.writeFileSync(${JSON.stringify(outFile)}, JSON.stringify(out));
}
__run();
`;
}

function njs(binary: string, dir: string, file: string): Promise<string> {
  return new Promise((ok, fail) => {
    execFile(binary, ['-p', dir, file], { maxBuffer: 512 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error || stderr.trim()) fail(new Error(`njs ${path.basename(file)}: ${stderr.trim() || stdout.trim() || error?.message}`));
      else ok(stdout);
    });
  });
}

/**
 * Each event through `code` (a function file as the build wrote it), in njs (`binary`), `batch`
 * events a process, two processes at a time; the outcomes in the events' order.
 */
export async function runInNjs<T = CfRequest | CfResponse>(code: string, events: readonly unknown[], store: StandInStore, { batch = 4000, binary = NJS }: { batch?: number; binary?: string } = {}): Promise<Outcome<T>[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'site-njs-'));
  try {
    await writeFile(path.join(dir, 'cloudfront'), standInModule(store));
    const batches: unknown[][] = [];
    for (let i = 0; i < events.length; i += batch) batches.push(events.slice(i, i + batch));
    const results: Outcome<T>[][] = new Array(batches.length);
    let next = 0;
    const worker = async () => {
      while (next < batches.length) {
        const i = next++;
        const file = path.join(dir, `run-${i}.js`);
        const outFile = path.join(dir, `out-${i}.json`);
        // The stand-in imported first, for its count of calls; the function's own import of it follows as written.
        await writeFile(file, `import __standIn from 'cloudfront';\nimport __fs from 'fs';\n${code}\n${driver(batches[i]!, outFile)}`);
        await njs(binary, dir, file);
        results[i] = JSON.parse(await readFile(outFile, 'utf8')) as Outcome<T>[];
      }
    };
    await Promise.all([worker(), worker()]);
    return results.flat();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The njs binary's version line ('0.7.9'). */
export function njsVersion(): Promise<string> {
  return new Promise((ok, fail) => execFile(NJS, ['-v'], (error, stdout) => (error ? fail(error) : ok(stdout.trim()))));
}
