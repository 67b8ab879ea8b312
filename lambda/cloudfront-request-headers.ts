// The two headers CloudFront adds to every /api/* request it passes to the form Lambda, named once
// for the stack that configures them (infra/) and the handler that reads them. Lower case, as
// Function URLs deliver header names.

/** The secret only CloudFront knows (an origin custom header): a request without it skipped CloudFront, and WAF with it. */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

/** The viewer's address and port, written by CloudFront itself (a client cannot set it), for the per-address limit. */
export const VIEWER_ADDRESS_HEADER = 'cloudfront-viewer-address';
