// Who is posting, for the per-address limit: the viewer address CloudFront itself writes (a client
// cannot set it: CloudFront overwrites the header), trusted only on a request that carried the
// origin secret, i.e. came through CloudFront. Elsewhere (`site serve`, tests) the socket's address.
import { VIEWER_ADDRESS_HEADER } from '../cloudfront-headers.ts';
import { header, type HttpEvent } from '../event.ts';

/**
 * The address to count posts against. An IPv6 address is counted by its /64 (one subscriber's
 * network: a single machine may hold millions of addresses in it); IPv4 by the address.
 */
export function clientAddress(event: HttpEvent, throughCloudFront: boolean): string {
  const viewer = throughCloudFront ? header(event, VIEWER_ADDRESS_HEADER) : undefined;
  // CloudFront writes `address:port`, for IPv6 too (the port after the last colon).
  const address = viewer ? viewer.trim().replace(/:\d+$/, '') : event.requestContext?.http?.sourceIp ?? '';
  return address ? networkOf(address) : 'unknown';
}

function networkOf(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  if (mapped) return mapped[1]!;
  if (!bare.includes(':')) return bare;
  const [head = '', tail = ''] = bare.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = bare.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}
