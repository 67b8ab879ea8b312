// The subset of the API Gateway HTTP API (payload v2) / Lambda Function URL event and result
// that the handler reads and writes. Every field is treated as untrusted and possibly absent.

export interface HttpEvent {
  version?: string;
  rawPath?: string;
  rawQueryString?: string;
  /** Lower-cased names, as API Gateway and Function URLs deliver them. */
  headers?: Record<string, string | undefined>;
  body?: string | null;
  isBase64Encoded?: boolean;
  /** The request's Cookie header, split ('name=value' each), as payload v2 delivers it. */
  cookies?: string[];
  requestContext?: {
    requestId?: string;
    http?: { method?: string; path?: string; sourceIp?: string; userAgent?: string };
  };
}

export interface HttpResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
  isBase64Encoded?: boolean;
  /** Set-Cookie values, one a cookie (payload v2). */
  cookies?: string[];
}

/** What the handler reads of Lambda's context: the time left before Lambda stops it (absent outside Lambda). */
export interface LambdaContext {
  getRemainingTimeInMillis(): number;
}

export type HttpHandler = (event: HttpEvent, context?: LambdaContext) => Promise<HttpResult>;

export function header(event: HttpEvent, name: string): string | undefined {
  const value = event.headers?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** The request's method in capitals, or '' when the event carries none (or something other than text). */
export function methodOf(event: HttpEvent): string {
  const method: unknown = event.requestContext?.http?.method;
  return typeof method === 'string' ? method.toUpperCase() : '';
}
