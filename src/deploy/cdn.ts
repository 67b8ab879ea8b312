// The CloudFront side of a deploy: one invalidation of the changed paths, the wait for it to
// complete (GetInvalidation's Status, 'InProgress' until every edge has dropped the paths), and the
// distribution's own address (GetDistribution's DomainName), where the deploy asks what readers get.
import { randomUUID } from 'node:crypto';
import { CreateInvalidationCommand, GetDistributionCommand, GetInvalidationCommand, type CloudFrontClient } from '@aws-sdk/client-cloudfront';

/** How long the deploy waits for an invalidation before it gives up (AWS: most complete within minutes). */
export const INVALIDATION_TIMEOUT_SECONDS = 30 * 60;

/** What the deploy needs of CloudFront; the tests may pass a fake. */
export interface Invalidator {
  invalidate(distributionId: string, paths: readonly string[]): Promise<{ id: string }>;
  /** Resolves once the invalidation is complete, asking every `pollSeconds` (waiting with `wait`); rejects past INVALIDATION_TIMEOUT_SECONDS. */
  completed(distributionId: string, id: string, how: { wait: (ms: number) => Promise<void>; pollSeconds: number }): Promise<void>;
  /** 'https://d111111abcdef8.cloudfront.net': the distribution's own domain name, which answers as its alternate names do. */
  address?(distributionId: string): Promise<string>;
}

export function cloudFrontInvalidator(client: CloudFrontClient): Invalidator {
  return {
    async invalidate(distributionId, paths) {
      const result = await client.send(new CreateInvalidationCommand({
        DistributionId: distributionId,
        InvalidationBatch: {
          // Unique per request: CloudFront treats a repeated reference as the same invalidation.
          CallerReference: `site-deploy-${Date.now()}-${randomUUID()}`,
          Paths: { Quantity: paths.length, Items: [...paths] },
        },
      }));
      return { id: result.Invalidation?.Id ?? '' };
    },
    async completed(distributionId, id, { wait, pollSeconds }) {
      for (let waited = 0; ; waited += pollSeconds) {
        const result = await client.send(new GetInvalidationCommand({ DistributionId: distributionId, Id: id }));
        if (result.Invalidation?.Status === 'Completed') return;
        if (waited >= INVALIDATION_TIMEOUT_SECONDS) throw new Error(`CloudFront's invalidation ${id} was not complete after ${INVALIDATION_TIMEOUT_SECONDS / 60} minutes: run the deploy again to finish`);
        await wait(pollSeconds * 1000);
      }
    },
    async address(distributionId) {
      const result = await client.send(new GetDistributionCommand({ Id: distributionId }));
      const domain = result.Distribution?.DomainName;
      if (!domain) throw new Error(`CloudFront gave no domain name for distribution ${distributionId}`);
      return `https://${domain}`;
    },
  };
}
