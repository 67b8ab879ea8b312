// A stand-in for CloudFront's CreateInvalidation, GetInvalidation and GetDistribution on 127.0.0.1
// (REST XML, as the real API; a distribution it was not given is NoSuchDistribution, 404), so the deploy's invalidation goes through the real @aws-sdk/client-cloudfront without
// an AWS account. An invalidation is 'InProgress' until `statusOf` says otherwise ('Completed' at
// once by default; the edge simulator completes it once every edge has dropped the paths).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CloudFrontClient } from '@aws-sdk/client-cloudfront';

export interface InvalidationRequest {
  distributionId: string;
  paths: string[];
  callerReference: string;
}

export interface FakeCloudFront {
  client: CloudFrontClient;
  requests: InvalidationRequest[];
  /** Each GetInvalidation asked, by invalidation id. */
  polls: string[];
  /** The status GetInvalidation answers for an invalidation (by its index in `requests`). */
  statusOf: (index: number) => 'InProgress' | 'Completed';
  /** The distributions GetDistribution knows: id → domain name ('d111111abcdef8.cloudfront.net'). */
  distributions: Map<string, string>;
  close(): Promise<void>;
}

const NS = 'http://cloudfront.amazonaws.com/doc/2020-05-31/';
const texts = (xml: string, tag: string) => [...xml.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, 'g'))].map((m) => m[1]!);

export async function startFakeCloudFront(): Promise<FakeCloudFront> {
  const requests: InvalidationRequest[] = [];
  const polls: string[] = [];
  const distributions = new Map<string, string>();
  const fake = { statusOf: (_index: number): 'InProgress' | 'Completed' => 'Completed' };
  const xmlOf = (index: number, status: string) => {
    const r = requests[index]!;
    return `<?xml version="1.0" encoding="UTF-8"?><Invalidation xmlns="${NS}"><Id>I${index + 1}FAKE</Id><Status>${status}</Status><CreateTime>2025-01-01T00:00:00Z</CreateTime><InvalidationBatch><Paths><Quantity>${r.paths.length}</Quantity><Items>${r.paths.map((p) => `<Path>${p}</Path>`).join('')}</Items></Paths><CallerReference>${r.callerReference}</CallerReference></InvalidationBatch></Invalidation>`;
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got = /^\/2020-05-31\/distribution\/([^/]+)\/invalidation\/I(\d+)FAKE$/.exec(req.url ?? '');
      if (req.method === 'GET' && got && requests[Number(got[2]) - 1]) {
        const index = Number(got[2]) - 1;
        polls.push(`I${index + 1}FAKE`);
        res.writeHead(200, { 'content-type': 'text/xml' }).end(xmlOf(index, fake.statusOf(index)));
        return;
      }
      const distribution = /^\/2020-05-31\/distribution\/([^/]+)$/.exec(req.url ?? '');
      if (req.method === 'GET' && distribution) {
        const id = decodeURIComponent(distribution[1]!);
        const domain = distributions.get(id);
        if (!domain) {
          res.writeHead(404, { 'content-type': 'text/xml' }).end(`<?xml version="1.0"?><ErrorResponse xmlns="${NS}"><Error><Type>Sender</Type><Code>NoSuchDistribution</Code><Message>The specified distribution does not exist.</Message></Error><RequestId>FAKE</RequestId></ErrorResponse>`);
          return;
        }
        res.writeHead(200, { 'content-type': 'text/xml', etag: 'E2QWRUHEXAMPLE' }).end(`<?xml version="1.0" encoding="UTF-8"?><Distribution xmlns="${NS}"><Id>${id}</Id><ARN>arn:aws:cloudfront::123456789012:distribution/${id}</ARN><Status>Deployed</Status><LastModifiedTime>2025-01-01T00:00:00Z</LastModifiedTime><InProgressInvalidationBatches>0</InProgressInvalidationBatches><DomainName>${domain}</DomainName><DistributionConfig><CallerReference>site</CallerReference><Aliases><Quantity>0</Quantity></Aliases><Comment></Comment><Enabled>true</Enabled></DistributionConfig></Distribution>`);
        return;
      }
      const match = /^\/2020-05-31\/distribution\/([^/]+)\/invalidation$/.exec(req.url ?? '');
      if (req.method !== 'POST' || !match) {
        res.writeHead(404, { 'content-type': 'text/xml' }).end(`<ErrorResponse xmlns="${NS}"><Error><Type>Sender</Type><Code>NotFound</Code><Message>not faked</Message></Error></ErrorResponse>`);
        return;
      }
      const body = Buffer.concat(chunks).toString('utf8');
      const id = `I${requests.length + 1}FAKE`;
      requests.push({ distributionId: decodeURIComponent(match[1]!), paths: texts(body, 'Path'), callerReference: texts(body, 'CallerReference')[0] ?? '' });
      res.writeHead(201, { 'content-type': 'text/xml', location: `https://cloudfront.amazonaws.com${req.url}/${id}` });
      res.end(`<?xml version="1.0" encoding="UTF-8"?><Invalidation xmlns="${NS}"><Id>${id}</Id><Status>InProgress</Status><CreateTime>2025-01-01T00:00:00Z</CreateTime>${body.replace(/^<\?xml[^>]*\?>/, '').replace(/ xmlns="[^"]*"/, '')}</Invalidation>`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const client = new CloudFrontClient({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    credentials: { accessKeyId: 'FAKE', secretAccessKey: 'FAKE' },
  });
  return {
    client,
    requests,
    polls,
    distributions,
    get statusOf() { return fake.statusOf; },
    set statusOf(f) { fake.statusOf = f; },
    close: async () => {
      client.destroy();
      await new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve())));
    },
  };
}
