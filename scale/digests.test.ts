// A thousand of the largest leads the form takes, held, go out in digests within the bounds, each
// lead once: the whole of the sample tests/lambda/digest.test.ts keeps in `npm test`. Real dynalite
// and aws-ses-v2-local, through the real SDK clients.
import { describe, expect, it } from 'vitest';
import { DIGEST_BOUNDS } from '../lambda/leads/digest-plan.ts';
import { useLeadBackends } from '../tests/lambda/support.ts';
import { digestsOfMaximalLeads } from '../tests/lambda/maximal-digests.ts';

const backends = useLeadBackends();

describe('digests at scale', () => {
  it('1,000 maximal held leads go out in digests each within the bounds, every lead mailed once', async () => {
    const { digests } = await digestsOfMaximalLeads(backends, 1000);
    expect(digests).toBeGreaterThan(DIGEST_BOUNDS.perRun * 5);
  });
});
