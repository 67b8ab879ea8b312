// dynalite (the local DynamoDB) predates ReturnValuesOnConditionCheckFailure: it refuses a
// conditional write as DynamoDB does, but without the item as it stood. The leads' writes read that
// item to tell their own earlier write from another writer's (lambda/leads/store.ts), so the local
// store answers through this loopback proxy, which does what DynamoDB does: when a PutItem,
// UpdateItem or DeleteItem that asked for ALL_OLD fails its condition, the item is read (strongly
// consistent) and added to the error as `Item`. Every other request passes through unchanged.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const WRITES = new Set(['DynamoDB_20120810.PutItem', 'DynamoDB_20120810.UpdateItem', 'DynamoDB_20120810.DeleteItem']);

interface Answer { status: number; headers: http.IncomingHttpHeaders; body: Buffer }

function forward(agent: http.Agent, port: number, method: string, path: string, headers: http.IncomingHttpHeaders, body: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method, path, headers: { ...headers, 'content-length': String(body.length) }, agent }, (answer) => {
      const parts: Buffer[] = [];
      answer.on('data', (part: Buffer) => parts.push(part));
      answer.on('end', () => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: Buffer.concat(parts) }));
      answer.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** Starts the proxy on loopback (`listenPort`, 0 for a free one) in front of dynalite on `port`; answers its endpoint and a close. */
export async function startOldItemProxy(port: number, listenPort = 0): Promise<{ endpoint: string; close(): Promise<void> }> {
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (part: Buffer) => parts.push(part));
    req.on('end', () => void (async () => {
      const body = Buffer.concat(parts);
      const target = String(req.headers['x-amz-target'] ?? '');
      let answer = await forward(agent, port, req.method ?? 'POST', req.url ?? '/', req.headers, body);
      if (WRITES.has(target) && answer.status === 400) answer = await withOldItem(answer, body, req.headers);
      // The body may have grown by the old item: its length is set again, and dynalite's checksum dropped.
      const { 'x-amz-crc32': _checksum, ...headers } = { ...answer.headers, 'content-length': String(answer.body.length) } as http.IncomingHttpHeaders;
      res.writeHead(answer.status, headers);
      res.end(answer.body);
    })().catch(() => { if (!res.headersSent) res.writeHead(502); res.end(); }));
  });

  async function withOldItem(answer: Answer, body: Buffer, headers: http.IncomingHttpHeaders): Promise<Answer> {
    const error = JSON.parse(answer.body.toString('utf8')) as { __type?: string };
    const asked = JSON.parse(body.toString('utf8')) as { TableName?: string; Key?: unknown; Item?: Record<string, unknown>; ReturnValuesOnConditionCheckFailure?: string };
    if (!String(error.__type).endsWith('#ConditionalCheckFailedException') || asked.ReturnValuesOnConditionCheckFailure !== 'ALL_OLD') return answer;
    // A PutItem names its key inside its item: the key attributes are all the old item is read by.
    const key = asked.Key ?? await keyOf(asked.TableName!, asked.Item ?? {}, headers);
    const read = await forward(agent, port, 'POST', '/', { ...headers, 'x-amz-target': 'DynamoDB_20120810.GetItem' }, Buffer.from(JSON.stringify({ TableName: asked.TableName, Key: key, ConsistentRead: true })));
    const item = (JSON.parse(read.body.toString('utf8')) as { Item?: unknown }).Item;
    return item ? { ...answer, body: Buffer.from(JSON.stringify({ ...error, Item: item })) } : answer;
  }

  async function keyOf(table: string, item: Record<string, unknown>, headers: http.IncomingHttpHeaders): Promise<Record<string, unknown>> {
    const described = await forward(agent, port, 'POST', '/', { ...headers, 'x-amz-target': 'DynamoDB_20120810.DescribeTable' }, Buffer.from(JSON.stringify({ TableName: table })));
    const schema = (JSON.parse(described.body.toString('utf8')) as { Table?: { KeySchema?: { AttributeName: string }[] } }).Table?.KeySchema ?? [];
    return Object.fromEntries(schema.map(({ AttributeName }) => [AttributeName, item[AttributeName]]));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listenPort, '127.0.0.1', () => { server.off('error', reject); resolve(); });
  });
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => {
      agent.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
