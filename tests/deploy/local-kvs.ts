// A stand-in for the CloudFront KeyValueStore API on 127.0.0.1, speaking its wire protocol (REST
// JSON, as @aws-sdk/client-cloudfront-keyvaluestore sends it): DescribeKeyValueStore, ListKeys a
// page at a time, and UpdateKeys, all-or-nothing, only with the store's current ETag in If-Match
// (ConflictException otherwise), within the service's limits (a key of at most 512 bytes, a value
// of at most 1 KB, 5 MB in all; 50 keys and 3 MB a call). Requests must be signed with SigV4A,
// as the real client signs them. The client puts the store's account in front of the endpoint's
// host ('123456789012.localhost'), which no resolver knows, so its connections are sent here.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CloudFrontKeyValueStoreClient } from '@aws-sdk/client-cloudfront-keyvaluestore';

export const KVS_ARN = 'arn:aws:cloudfront::123456789012:key-value-store/0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9';

const LIMITS = { keyBytes: 512, valueBytes: 1024, totalBytes: 5 * 1024 * 1024, keysPerCall: 50, bytesPerCall: 3 * 1024 * 1024, listPage: 50 };

export interface LocalKvs {
  endpoint: string;
  client: CloudFrontKeyValueStoreClient;
  entries: Map<string, string>;
  /** The calls made, by operation ('UpdateKeys': each with its puts and deletes). */
  calls: Array<{ op: string; puts?: number; deletes?: number; status: number }>;
  /** Called with each UpdateKeys call's puts and deletes before they are applied (a test's check of what exists by then). */
  beforeUpdate?: (puts: Array<{ Key: string; Value: string }>, deletes: Array<{ Key: string }>) => Promise<void>;
  /** The next `n` UpdateKeys calls find that another writer got in first (the ETag moves on before they are checked). */
  interfere(n: number): void;
  /** From the `n`th UpdateKeys call on (1 = the next), the service fails (HTTP 500) until `heal()`. */
  failFrom(n: number): void;
  heal(): void;
  close(): Promise<void>;
}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

export async function startLocalKvs(): Promise<LocalKvs> {
  const entries = new Map<string, string>();
  const calls: LocalKvs['calls'] = [];
  let version = 1;
  let interfering = 0;
  let failAt = Infinity;
  let updates = 0;
  const etag = () => `ETVPDKIKX0DER${version}`;
  const size = () => { let n = 0; for (const [k, v] of entries) n += bytes(k) + bytes(v); return n; };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
      };
      const fail = (status: number, type: string, message: string) => send(status, { Message: message }, { 'x-amzn-errortype': type });
      const op = req.method === 'GET' && parts.length === 2 ? 'DescribeKeyValueStore' : req.method === 'GET' && parts[2] === 'keys' ? 'ListKeys' : req.method === 'POST' && parts[2] === 'keys' ? 'UpdateKeys' : 'unknown';
      const record = (status: number, extra: object = {}) => calls.push({ op, status, ...extra });

      if (!String(req.headers.authorization ?? '').startsWith('AWS4-ECDSA-P256-SHA256 ') || req.headers['x-amz-region-set'] !== '*') {
        record(403);
        return fail(403, 'AccessDeniedException', 'requests are signed with SigV4A for every region');
      }
      if (parts[0] !== 'key-value-stores' || parts[1] !== KVS_ARN || op === 'unknown') {
        record(404);
        return fail(404, 'ResourceNotFoundException', `no key value store ${parts[1] ?? ''}`);
      }
      if (op === 'DescribeKeyValueStore') {
        record(200);
        return send(200, { ItemCount: entries.size, TotalSizeInBytes: size(), KvsARN: KVS_ARN, Created: 1_700_000_000, LastModified: 1_700_000_000, Status: 'READY' }, { etag: etag() });
      }
      if (op === 'ListKeys') {
        const max = Number(url.searchParams.get('MaxResults') ?? LIMITS.listPage);
        if (!Number.isInteger(max) || max < 1 || max > LIMITS.listPage) { record(400); return fail(400, 'ValidationException', `MaxResults must be 1 to ${LIMITS.listPage}`); }
        const keys = [...entries.keys()].sort();
        const token = url.searchParams.get('NextToken');
        const start = token ? Number(Buffer.from(token, 'base64url').toString()) : 0;
        const page = keys.slice(start, start + max);
        record(200);
        return send(200, { Items: page.map((k) => ({ Key: k, Value: entries.get(k) })), ...(start + max < keys.length ? { NextToken: Buffer.from(String(start + max)).toString('base64url') } : {}) });
      }
      // UpdateKeys
      updates += 1;
      if (updates >= failAt) { record(500); return fail(500, 'InternalServerException', 'the service is failing (test)'); }
      if (interfering > 0) { interfering -= 1; version += 1; }
      const body = Buffer.concat(chunks);
      const request = JSON.parse(body.toString('utf8') || '{}') as { Puts?: Array<{ Key: string; Value: string }>; Deletes?: Array<{ Key: string }> };
      const puts = request.Puts ?? [];
      const deletes = request.Deletes ?? [];
      const extra = { puts: puts.length, deletes: deletes.length };
      // A stale If-Match, as the UpdateKeys API reference lists it
      // (https://docs.aws.amazon.com/cloudfront/latest/APIReference/API_kvs_UpdateKeys.html, Errors):
      // ConflictException, "Resource is not in expected state", HTTP 409, the body's one member Message.
      if (req.headers['if-match'] !== etag()) { record(409, extra); return fail(409, 'ConflictException', 'Resource is not in expected state.'); }
      if (puts.length + deletes.length > LIMITS.keysPerCall || body.length > LIMITS.bytesPerCall) { record(400, extra); return fail(400, 'ValidationException', `at most ${LIMITS.keysPerCall} keys and ${LIMITS.bytesPerCall} bytes a call`); }
      for (const p of puts) {
        if (bytes(p.Key) < 1 || bytes(p.Key) > LIMITS.keyBytes || bytes(p.Value) > LIMITS.valueBytes) { record(400, extra); return fail(400, 'ValidationException', `key ${p.Key.slice(0, 40)}: a key is 1 to ${LIMITS.keyBytes} bytes, a value at most ${LIMITS.valueBytes}`); }
      }
      const next = new Map(entries);
      for (const p of puts) next.set(p.Key, p.Value);
      for (const d of deletes) next.delete(d.Key);
      let total = 0;
      for (const [k, v] of next) total += bytes(k) + bytes(v);
      if (total > LIMITS.totalBytes) { record(402, extra); return fail(402, 'ServiceQuotaExceededException', `the store would hold ${total} bytes, over ${LIMITS.totalBytes}`); }
      await kvs.beforeUpdate?.(puts, deletes);
      entries.clear();
      for (const [k, v] of next) entries.set(k, v);
      version += 1;
      record(200, extra);
      return send(200, { ItemCount: entries.size, TotalSizeInBytes: total }, { etag: etag() });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://localhost:${port}`;
  const client = localKvsClient(endpoint, { accessKeyId: 'KVSLOCAL', secretAccessKey: 'KVSLOCAL' });
  const kvs: LocalKvs = {
    endpoint, client, entries, calls,
    interfere: (n) => { interfering = n; },
    failFrom: (n) => { failAt = updates + n; },
    heal: () => { failAt = Infinity; },
    close: async () => {
      client.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
    },
  };
  return kvs;
}

/** The real client, pointed at the stand-in: every host it names is looked up as the endpoint's own. */
export function localKvsClient(endpoint: string, credentials?: { accessKeyId: string; secretAccessKey: string }): CloudFrontKeyValueStoreClient {
  return new CloudFrontKeyValueStoreClient({
    region: 'us-east-1',
    endpoint,
    ...(credentials ? { credentials } : {}),
    // A failed call is the test's to see, not the SDK's to try again.
    maxAttempts: 1,
    requestHandler: { httpAgent: new http.Agent({ lookup: loopbackLookup }) },
  });
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | Array<{ address: string; family: number }>, family?: number) => void;
function loopbackLookup(_host: string, options: { all?: boolean }, callback: LookupCallback): void {
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
}
