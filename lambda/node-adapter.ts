// Runs the Lambda handler behind a node:http server (`site serve`, tests, the benchmark):
// an IncomingMessage becomes the HTTP API v2 event the handler knows, and its result is
// written back to the ServerResponse.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { DEFAULT_MAX_BODY_BYTES } from './body.ts';
import type { HttpEvent, HttpHandler, HttpResult } from './event.ts';

export interface NodeAdapterOptions {
  /** Same limit as the handler's; bytes beyond it are read and dropped, never kept. */
  maxBodyBytes?: number;
}

/**
 * Reads the body, keeping at most maxBytes + 1 bytes: enough for the handler to see that it
 * is too large and answer 413 in the caller's format, without holding the rest in memory.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    req.on('data', (chunk: Buffer) => {
      if (kept > maxBytes) return;
      const room = maxBytes + 1 - kept;
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      chunks.push(part);
      kept += part.length;
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
    // A client that hangs up mid-body may give neither 'end' nor 'error'; don't wait forever.
    req.on('close', () => {
      if (!req.complete) reject(new Error('Client closed the connection before the body ended'));
    });
  });
}

function flatHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** The event API Gateway (payload 2.0) would build; the body goes base64 so no byte is altered. */
export function toHttpEvent(req: IncomingMessage, body: Buffer): HttpEvent {
  const url = new URL(req.url ?? '/', 'http://localhost');
  return {
    version: '2.0',
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers: flatHeaders(req),
    ...(body.length > 0 ? { body: body.toString('base64'), isBase64Encoded: true } : { isBase64Encoded: false }),
    requestContext: {
      requestId: randomUUID(),
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        ...(req.socket.remoteAddress ? { sourceIp: req.socket.remoteAddress } : {}),
        ...(req.headers['user-agent'] ? { userAgent: req.headers['user-agent'] } : {}),
      },
    },
  };
}

export function writeResult(res: ServerResponse, result: HttpResult): void {
  res.statusCode = result.statusCode;
  for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
  // A Function URL sends payload 2.0's `cookies` as Set-Cookie headers, one each.
  if (result.cookies?.length) res.setHeader('set-cookie', result.cookies);
  res.end(Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8'));
}

/** A request listener for http.createServer, or for one route of a larger server. */
export function nodeListener(
  handler: HttpHandler,
  options: NodeAdapterOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  const maxBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  return (req, res) => {
    readBody(req, maxBytes)
      .then((body) => handler(toHttpEvent(req, body)))
      .then((result) => writeResult(res, result))
      .catch(() => {
        // The handler answers its own errors; this is a broken connection or a bug in here.
        if (!res.headersSent) {
          res.statusCode = 500;
          res.end();
        } else {
          res.destroy();
        }
      });
  };
}
