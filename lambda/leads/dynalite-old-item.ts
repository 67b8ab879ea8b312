// dynalite (the local DynamoDB) predates ReturnValuesOnConditionCheckFailure: it refuses a
// conditional write as DynamoDB does, but without the item as it stood. The leads' writes read that
// item to tell their own earlier write from another writer's (lambda/leads/store.ts), so the local
// store's server does what DynamoDB does: when a PutItem, UpdateItem or DeleteItem that asked for
// ALL_OLD fails its condition, the item is read (strongly consistent) and added to the error as
// `Item`. Every other request goes to dynalite as it came.
//
// dynalite's own request handler is called in this process, on dynalite's own server: a proxy in
// front of it cost every request a second loopback connection, its parse and its copy.
import type { IncomingHttpHeaders, RequestListener, Server } from 'node:http';
import { Readable } from 'node:stream';

const WRITES = new Set(['DynamoDB_20120810.PutItem', 'DynamoDB_20120810.UpdateItem', 'DynamoDB_20120810.DeleteItem']);

interface Answer { status: number; headers: Record<string, string>; body: Buffer }

/**
 * One request to dynalite's handler, with the body already read: a request stream that gives the
 * body, and a response that keeps what dynalite sets (it sets the status and headers, then ends
 * with the body).
 */
function ask(dynamo: RequestListener, method: string, url: string, headers: IncomingHttpHeaders, body: Buffer): Promise<Answer> {
  return new Promise((resolve) => {
    const req = Object.assign(Readable.from(body.length ? [body] : []), { method, url, headers });
    const kept: Record<string, string> = {};
    const res = {
      statusCode: 200,
      setHeader(name: string, value: unknown) { kept[name.toLowerCase()] = String(value); },
      end(data?: string | Buffer) { resolve({ status: this.statusCode, headers: kept, body: Buffer.from(data ?? '') }); },
    };
    dynamo(req as never, res as never);
  });
}

/** Makes dynalite's `server` answer a failed conditional write that asked for ALL_OLD with the old item, as DynamoDB does. Call before it listens. */
export function answerOldItems(server: Server): void {
  const [handler] = server.listeners('request') as RequestListener[];
  if (!handler) throw new Error('dynalite has no request handler to answer through');
  const dynamo = handler;
  server.removeAllListeners('request');
  server.on('request', (req, res) => {
    const target = String(req.headers['x-amz-target'] ?? '');
    if (!WRITES.has(target)) return dynamo(req, res);
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => void (async () => {
      const body = Buffer.concat(parts);
      const answer = await ask(dynamo, req.method ?? 'POST', req.url ?? '/', req.headers, body);
      const told = answer.status === 400 ? await withOldItem(answer, body, req.headers) : answer;
      // Where the old item was added, the body's length is set again and dynalite's checksum dropped.
      const { 'x-amz-crc32': checksum, ...headers } = told.headers;
      res.writeHead(told.status, { ...headers, ...(told === answer && checksum !== undefined ? { 'x-amz-crc32': checksum } : {}), 'content-length': String(told.body.length) });
      res.end(told.body);
    })().catch(() => { if (!res.headersSent) res.writeHead(502); res.end(); }));
  });

  async function withOldItem(answer: Answer, body: Buffer, headers: IncomingHttpHeaders): Promise<Answer> {
    const error = JSON.parse(answer.body.toString('utf8')) as { __type?: string };
    const asked = JSON.parse(body.toString('utf8')) as { TableName?: string; Key?: unknown; Item?: Record<string, unknown>; ReturnValuesOnConditionCheckFailure?: string };
    if (!String(error.__type).endsWith('#ConditionalCheckFailedException') || asked.ReturnValuesOnConditionCheckFailure !== 'ALL_OLD') return answer;
    // A PutItem names its key inside its item: the key attributes are all the old item is read by.
    const key = asked.Key ?? await keyOf(asked.TableName!, asked.Item ?? {}, headers);
    const read = await ask(dynamo, 'POST', '/', { ...headers, 'x-amz-target': 'DynamoDB_20120810.GetItem' }, Buffer.from(JSON.stringify({ TableName: asked.TableName, Key: key, ConsistentRead: true })));
    const item = (JSON.parse(read.body.toString('utf8')) as { Item?: unknown }).Item;
    return item ? { ...answer, body: Buffer.from(JSON.stringify({ ...error, Item: item })) } : answer;
  }

  async function keyOf(table: string, item: Record<string, unknown>, headers: IncomingHttpHeaders): Promise<Record<string, unknown>> {
    const described = await ask(dynamo, 'POST', '/', { ...headers, 'x-amz-target': 'DynamoDB_20120810.DescribeTable' }, Buffer.from(JSON.stringify({ TableName: table })));
    const schema = (JSON.parse(described.body.toString('utf8')) as { Table?: { KeySchema?: { AttributeName: string }[] } }).Table?.KeySchema ?? [];
    return Object.fromEntries(schema.map(({ AttributeName }) => [AttributeName, item[AttributeName]]));
  }
}
