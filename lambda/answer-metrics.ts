// The figures each answer of the form handler adds to its log line (metrics.ts), for the alarms on
// what visitors meet (infra/lib/alarms.ts): every form post that came the way a visitor's does,
// those of them refused with a 4xx (a wrong ALLOWED_ORIGINS or origin secret refuses them all with
// 403), and honeypot hits, whose leads are stored flagged as likely spam and mailed only in the digest.
import { ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from './cloudfront-request-headers.ts';
import { header, methodOf, type HttpEvent } from './event.ts';
import { METRICS, type MetricName } from './metrics.ts';

export interface AnsweredPost {
  statusCode: number;
  /** The honeypot was filled. */
  spam?: boolean;
}

/**
 * Behind CloudFront (`behindCloudFront`: the handler checks an origin secret), a post came through
 * it when it carries either header CloudFront adds, the origin secret (right or wrong, so a wrong
 * secret still counts) or the viewer's address; a post straight to the public function URL carries
 * neither and is no visitor's. Without CloudFront (`site serve`) every post counts. Only POSTs
 * count: a crawler's GET of the form's address (405) turns no visitor away.
 */
export function answerMetrics(event: HttpEvent, answer: AnsweredPost, behindCloudFront: boolean): MetricName[] {
  if (methodOf(event) !== 'POST') return [];
  const cameThroughCloudFront = header(event, ORIGIN_VERIFY_HEADER) !== undefined || header(event, VIEWER_ADDRESS_HEADER) !== undefined;
  if (behindCloudFront && !cameThroughCloudFront) return [];
  const metrics: MetricName[] = [METRICS.formPosts];
  // 429 has its own figure and alarm (a flood), and is no sign of a refusal by mistake.
  if (answer.statusCode >= 400 && answer.statusCode < 500 && answer.statusCode !== 429) metrics.push(METRICS.formPostsRefused);
  if (answer.spam) metrics.push(METRICS.honeypotHits);
  return metrics;
}
