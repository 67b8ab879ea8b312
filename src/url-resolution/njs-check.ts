// `site build` runs the two CloudFront functions it emits in njs, the engine CloudFront Functions
// are built on, over a handful of routes of the build's own routing entries, and compares each
// answer with the one `site serve` gives (rule.ts over the same entries): a built-in the runtime
// lacks, or anything else that throws there, stops the build. Without njs (/usr/bin/njs, or
// NJS_PATH) the build says so in one line and relies on the check of what the functions are
// written with (function-runtime.ts).
import { access, constants } from 'node:fs/promises';
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
  const ran = await runInNjs<CfRequest | CfResponse>(code.request, events, { entries: held }).catch((error: Error) => error);
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
  const responded = await runInNjs<CfResponse>(code.response, [marked], { entries: [] }).catch((error: Error) => error);
  if (responded instanceof Error) problems.push(`viewer-response.js in njs: ${responded.message.split('\n')[0]}`);
  else if (responded[0]!.error) problems.push(`viewer-response.js in njs: the not-found page threw ${responded[0]!.error}`);
  else if (responded[0]!.result.statusCode !== 404) problems.push(`viewer-response.js in njs: the not-found page answered ${responded[0]!.result.statusCode}, not 404`);
  if (problems.length > 0) throw new FunctionRuntimeError(problems);
  return true;
}

/** The line a build prints where njs is not installed. */
export const NO_NJS = `note: njs not found (${NJS}; set NJS_PATH): the CloudFront functions were checked for what they are written with, not run`;
