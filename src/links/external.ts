/** Fetching external links, only on request: HEAD first, GET when HEAD fails, each URL once. */
import type { ExternalResult } from './types.ts';

export interface ExternalOptions {
  timeoutMs?: number;
  concurrency?: number;
  fetch?: typeof fetch;
}

const USER_AGENT = 'site-check-links/1.0';

function describe(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  return e.cause?.code ?? e.cause?.message ?? e.message ?? String(error);
}

async function request(url: string, method: 'HEAD' | 'GET', opts: Required<ExternalOptions>): Promise<{ status: number } | { error: string }> {
  try {
    const res = await opts.fetch(url, { method, redirect: 'follow', signal: AbortSignal.timeout(opts.timeoutMs), headers: { 'user-agent': USER_AGENT, accept: '*/*' } });
    await res.body?.cancel().catch(() => undefined); // the status is all we need
    return { status: res.status };
  } catch (error) {
    return { error: describe(error, opts.timeoutMs) };
  }
}

export async function checkExternalUrl(url: string, options: ExternalOptions = {}): Promise<ExternalResult> {
  const opts: Required<ExternalOptions> = { timeoutMs: 10_000, concurrency: 8, fetch: globalThis.fetch, ...options };
  const head = await request(url, 'HEAD', opts);
  if ('status' in head && head.status >= 200 && head.status < 400) return { url, ok: true, status: head.status };
  // Many servers answer HEAD with 405/501 (or wrongly); GET is the judge.
  const get = await request(url, 'GET', opts);
  if ('error' in get) return { url, ok: false, error: get.error };
  return { url, ok: get.status >= 200 && get.status < 400, status: get.status };
}

/** Checks each URL once, at most `concurrency` at a time. */
export async function checkExternalUrls(urls: string[], options: ExternalOptions = {}): Promise<Map<string, ExternalResult>> {
  const unique = [...new Set(urls)];
  const results = new Map<string, ExternalResult>();
  let next = 0;
  const worker = async () => {
    while (next < unique.length) {
      const url = unique[next++]!;
      results.set(url, await checkExternalUrl(url, options));
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 8, unique.length) }, worker));
  return results;
}
