// The CloudFront side of a deploy: one invalidation of the changed paths.
import { randomUUID } from 'node:crypto';
import { CreateInvalidationCommand, type CloudFrontClient } from '@aws-sdk/client-cloudfront';

/** What the deploy needs of CloudFront; the tests may pass a fake. */
export interface Invalidator {
  invalidate(distributionId: string, paths: readonly string[]): Promise<{ id: string }>;
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
  };
}
