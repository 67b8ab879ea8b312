// Who is posting, for the per-address limit: the viewer address CloudFront itself writes (a client
// cannot set it: CloudFront overwrites the header), trusted only on a request that carried the
// origin secret, i.e. came through CloudFront. Elsewhere (`site serve`, tests) the socket's address.
import { VIEWER_ADDRESS_HEADER } from '../cloudfront-request-headers.ts';
import { header, type HttpEvent } from '../event.ts';

/** What posts are counted against: the address (IPv4) or its /64 (IPv6), for IPv6 its /48 as well, and the network around it. */
export interface ClientNetworks {
  address: string;
  /** The /48 around an IPv6 address: one site's allocation, from which a script can rotate through 65,536 /64s. */
  site?: string;
  /** The network the address is in, for its share of the hour's lead e-mails: an IPv4 /24, an IPv6 /48. */
  network: string;
}

/**
 * The address to count posts against. An IPv6 address is counted by its /64 (one subscriber's
 * network: a single machine may hold millions of addresses in it) and by its /48, at a higher
 * limit; IPv4 by the address.
 */
export function clientAddress(event: HttpEvent, throughCloudFront: boolean): ClientNetworks {
  const viewer = throughCloudFront ? header(event, VIEWER_ADDRESS_HEADER) : undefined;
  // CloudFront writes `address:port`, for IPv6 too (the port after the last colon).
  const source: unknown = event.requestContext?.http?.sourceIp;
  const address = viewer ? viewer.trim().replace(/:\d+$/, '') : typeof source === 'string' ? source : '';
  return address ? networksOf(address) : { address: 'unknown', network: 'unknown' };
}

function networksOf(address: string): ClientNetworks {
  const bare = address.replace(/^\[|\]$/g, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
  const ipv4 = mapped?.[1] ?? (bare.includes(':') ? undefined : bare);
  if (ipv4 !== undefined) return { address: ipv4, network: `${ipv4.split('.').slice(0, 3).join('.')}.0/24` };
  const [head = '', tail = ''] = bare.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = bare.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  const prefix = (count: number) => groups.slice(0, count).map((g) => g.replace(/^0+(?=.)/, '')).join(':');
  const site = `${prefix(3)}::/48`;
  return { address: `${prefix(4)}::/64`, site, network: site };
}
