// The handler's answers: JSON for fetch() callers, a redirect or a small HTML page for plain
// form posts. None may be cached, and none should be sniffed as anything else.
import type { HttpResult } from './event.ts';

const COMMON = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
};

export function jsonAnswer(
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
): HttpResult {
  return {
    statusCode,
    headers: { ...COMMON, 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(body),
  };
}

export function redirectAnswer(location: string, headers: Record<string, string> = {}): HttpResult {
  return { statusCode: 303, headers: { ...COMMON, location, ...headers }, body: '' };
}

export function htmlAnswer(
  statusCode: number,
  html: string,
  headers: Record<string, string> = {},
): HttpResult {
  return {
    statusCode,
    headers: {
      ...COMMON,
      'content-type': 'text/html; charset=utf-8',
      // The page has no scripts, images or forms of its own; only its inline style is allowed.
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
      ...headers,
    },
    body: html,
  };
}

export function emptyAnswer(statusCode: number, headers: Record<string, string> = {}): HttpResult {
  return { statusCode, headers: { ...COMMON, ...headers }, body: '' };
}
