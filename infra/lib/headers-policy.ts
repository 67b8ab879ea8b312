// .site/deploy/headers.json → the CloudFront response-headers policy. CloudFront models the well-known
// security headers as typed fields and everything else as custom headers; this maps each header
// the build wrote to one of the two, and refuses a value CloudFront could not send verbatim, so
// the CDN's headers are exactly the ones `site serve` sends.
import { Duration } from 'aws-cdk-lib';
import {
  HeadersFrameOption,
  HeadersReferrerPolicy,
  ResponseHeadersPolicy,
  type ResponseCustomHeader,
  type ResponseSecurityHeadersBehavior,
} from 'aws-cdk-lib/aws-cloudfront';
import type { Construct } from 'constructs';

/** CloudFront's limit on the Content-Security-Policy value of a response-headers policy. */
export const CSP_LIMIT = 1783;

export interface HeadersPolicyParts {
  securityHeadersBehavior: ResponseSecurityHeadersBehavior;
  customHeaders: ResponseCustomHeader[];
}

const HSTS = /^max-age=(\d+)((?:;\s*(?:includeSubDomains|preload))*)$/i;

function referrerPolicy(value: string): HeadersReferrerPolicy {
  const known = Object.values(HeadersReferrerPolicy) as string[];
  if (!known.includes(value)) throw new Error(`referrer-policy '${value}' is not one CloudFront can send (${known.join(', ')})`);
  return value as HeadersReferrerPolicy;
}

/** The CSP's form-action sources, or undefined when the policy has no form-action directive. */
export function formActionSources(csp: string): string[] | undefined {
  const directive = csp.split(';').map((d) => d.trim().split(/\s+/)).find(([name]) => name?.toLowerCase() === 'form-action');
  return directive?.slice(1);
}

export function headersPolicyParts(headers: Readonly<Record<string, string>>): HeadersPolicyParts {
  const security: { -readonly [K in keyof ResponseSecurityHeadersBehavior]: ResponseSecurityHeadersBehavior[K] } = {};
  const customHeaders: ResponseCustomHeader[] = [];
  for (const [rawName, value] of Object.entries(headers)) {
    const name = rawName.toLowerCase();
    switch (name) {
      case 'content-security-policy': {
        if (value.length > CSP_LIMIT) throw new Error(`content-security-policy is ${value.length} characters; a CloudFront response-headers policy takes at most ${CSP_LIMIT}`);
        // The forms post to /api/* on the site's own origin, so 'self' must be a form-action source.
        const formAction = formActionSources(value);
        if (formAction && !formAction.includes("'self'")) throw new Error(`content-security-policy form-action (${formAction.join(' ')}) does not allow 'self', where the forms post`);
        security.contentSecurityPolicy = { contentSecurityPolicy: value, override: true };
        break;
      }
      case 'strict-transport-security': {
        const match = HSTS.exec(value.trim());
        if (!match) throw new Error(`strict-transport-security '${value}' is not of the form CloudFront sends: max-age=N[; includeSubDomains][; preload]`);
        const flags = (match[2] ?? '').toLowerCase();
        security.strictTransportSecurity = {
          accessControlMaxAge: Duration.seconds(Number(match[1])),
          includeSubdomains: flags.includes('includesubdomains'),
          preload: flags.includes('preload'),
          override: true,
        };
        break;
      }
      case 'x-content-type-options':
        if (value.toLowerCase() !== 'nosniff') throw new Error(`x-content-type-options '${value}': CloudFront can only send nosniff`);
        security.contentTypeOptions = { override: true };
        break;
      case 'x-frame-options': {
        const option = value.toUpperCase();
        if (option !== 'DENY' && option !== 'SAMEORIGIN') throw new Error(`x-frame-options '${value}': CloudFront can send DENY or SAMEORIGIN`);
        security.frameOptions = { frameOption: option === 'DENY' ? HeadersFrameOption.DENY : HeadersFrameOption.SAMEORIGIN, override: true };
        break;
      }
      case 'referrer-policy':
        security.referrerPolicy = { referrerPolicy: referrerPolicy(value), override: true };
        break;
      default:
        customHeaders.push({ header: name, value, override: true });
    }
  }
  return { securityHeadersBehavior: security, customHeaders };
}


/** A response-headers policy sending exactly `set` (one of .site/deploy/headers.json's sets). */
export function responseHeadersPolicy(scope: Construct, id: string, comment: string, set: Readonly<Record<string, string>>): ResponseHeadersPolicy {
  const headers = headersPolicyParts(set);
  return new ResponseHeadersPolicy(scope, id, {
    comment,
    securityHeadersBehavior: headers.securityHeadersBehavior,
    ...(headers.customHeaders.length ? { customHeadersBehavior: { customHeaders: headers.customHeaders } } : {}),
    // The content hash `site deploy` stores with each object is for the deploy, not for visitors.
    removeHeaders: ['x-amz-meta-sha256'],
  });
}
