// `site build` runs the two CloudFront functions it emits in njs, the engine CloudFront Functions
// are built on, over a handful of routes of the build's own routing entries, and compares each
// answer with the one `site serve` gives (rule.ts over the same entries): a built-in the runtime
// lacks, or anything else that throws there, stops the build. Without njs (/usr/bin/njs, or
// NJS_PATH) the build says so in one line and relies on the check of what the functions are
// written with (function-runtime.ts). A check that passed is recorded in the build cache under a
// hash of all it was made from, and not run again for the same functions and entries.
import { access, constants, mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { generatorCode } from '../generator-code.ts';
import { hashOf } from '../hash.ts';
import { writeBeside } from '../temp-file.ts';
import { answer, PAGE, RULES_KEY, type Resolution, type Rules } from './rule.ts';
import { FunctionRuntimeError } from './function-runtime.ts';
import { NJS, runInNjs, type CfRequest, type CfResponse } from './njs-runtime.ts';
import { ERROR_STATUS_HEADER, rulesIn, type Entry } from './store-data.ts';

/** A handful of routes that reach every branch of the rule: pages and their other names, redirects, fallbacks, files, not-found. */
export function sampleRoutes(entries: readonly Entry[], rules: Rules): string[] {
  const pages = entries.filter((e) => e.value === PAGE).map((e) => e.key);
  const redirect = entries.find((e) => e.key !== RULES_KEY && e.value !== PAGE)?.key;
  const page = pages.find((p) => p !== '/') ?? '/about';
  const routes = ['/', '/index.html', page, `${page}/`, `${page}.html`, `/${page}`, `${page}/index.html`, rules.notFound, '/no-such-page', '/assets/site-0123abcd.css', '/robots.txt', '/bad\\path'];
  if (redirect) routes.push(redirect);
  for (const f of rules.fallbacks) routes.push(`${f.prefix}no-such-entry`, ...(f.file ? [f.file] : []));
  return [...new Set(routes)];
}

const describe = (r: Resolution) => (r.kind === 'redirect' ? `${r.status} → ${r.location}` : r.kind === 'file' ? `${r.file}` : `${r.status}`);

function fromNjs(result: CfRequest | CfResponse): string {
  if ('statusCode' in result) {
    const location = result.headers?.location?.value;
    return location === undefined ? String(result.statusCode) : `${result.statusCode} → ${location}`;
  }
  return result.uri;
}

/** Whether njs can be run here. */
export async function njsAvailable(binary = NJS): Promise<boolean> {
  return access(binary, constants.X_OK).then(() => true, () => false);
}

/**
 * Runs both functions in njs over sampleRoutes(); resolves to false when njs is not there, true
 * when every answer is site serve's; a FunctionRuntimeError names each route that is not.
 */
export async function checkFunctionsInNjs(code: { request: string; response: string }, entries: readonly Entry[], binary = NJS): Promise<boolean> {
  if (!(await njsAvailable(binary))) return false;
  const rules = rulesIn(entries) ?? { notFound: '/404.html', fallbacks: [] };
  const held = new Map(entries.map((e) => [e.key, e.value]));
  const routes = sampleRoutes(entries, rules);
  const events = routes.map((uri) => ({ request: { method: 'GET', uri, querystring: {}, headers: {}, cookies: {} } }));
  const problems: string[] = [];
  const ran = await runInNjs<CfRequest | CfResponse>(code.request, events, { entries: held }, { binary }).catch((error: Error) => error);
  if (ran instanceof Error) problems.push(`viewer-request.js in njs: ${ran.message.split('\n')[0]}`);
  else {
    ran.forEach((out, i) => {
      const uri = routes[i]!;
      const expected = describe(answer(uri, rules, (key) => held.get(key)));
      if (out.error) problems.push(`viewer-request.js in njs: GET ${uri} threw ${out.error}`);
      else if (fromNjs(out.result) !== expected) problems.push(`viewer-request.js in njs: GET ${uri} answered ${fromNjs(out.result)}, where site serve answers ${expected}`);
    });
  }
  const marked = { request: { uri: rules.notFound, headers: {} }, response: { statusCode: 200, headers: { [ERROR_STATUS_HEADER]: { value: '404' } } } };
  const responded = await runInNjs<CfResponse>(code.response, [marked], { entries: [] }, { binary }).catch((error: Error) => error);
  if (responded instanceof Error) problems.push(`viewer-response.js in njs: ${responded.message.split('\n')[0]}`);
  else if (responded[0]!.error) problems.push(`viewer-response.js in njs: the not-found page threw ${responded[0]!.error}`);
  else if (responded[0]!.result.statusCode !== 404) problems.push(`viewer-response.js in njs: the not-found page answered ${responded[0]!.result.statusCode}, not 404`);
  if (problems.length > 0) throw new FunctionRuntimeError(problems);
  return true;
}

/** The build cache's record of the checks that passed (their keys, the newest last). */
export const NJS_CHECK_RECORD = 'njs-check.json';
const KEYS_KEPT = 8;

/**
 * `checkFunctionsInNjs`, unless the same check passed before: the same functions over the same
 * entries, checked by the same generator (its code hash) with the same njs binary (its path, size
 * and time). Starting njs costs a build far more than the check itself (a fork of a process as
 * large as the build's), and a rebuild that changed no route would start it twice for the verdict
 * it had. Only a check that passed is recorded; an unreadable record is a check not yet made.
 */
export async function checkFunctionsInNjsOnce(code: { request: string; response: string }, entries: readonly Entry[], cacheDir: string, binary = NJS): Promise<boolean> {
  const njs = await stat(binary).catch(() => undefined);
  if (!njs) return false;
  const key = hashOf(generatorCode(), binary, String(njs.size), String(njs.mtimeMs), code.request, code.response, JSON.stringify(entries));
  const record = path.join(cacheDir, NJS_CHECK_RECORD);
  const passed: unknown = await readFile(record, 'utf8').then(JSON.parse).catch(() => undefined);
  const keys = Array.isArray(passed) ? passed.filter((k): k is string => typeof k === 'string') : [];
  if (keys.includes(key)) return true;
  if (!(await checkFunctionsInNjs(code, entries, binary))) return false;
  await mkdir(cacheDir, { recursive: true });
  await writeBeside(record, JSON.stringify([...keys, key].slice(-KEYS_KEPT)));
  return true;
}

/** The line a build prints where njs is not installed. */
export const NO_NJS = `note: njs not found (${NJS}; set NJS_PATH): the CloudFront functions were checked for what they are written with, not run`;
