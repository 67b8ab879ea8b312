// Every step of `site deploy` (a first deploy in batches, an article added and one removed, a
// deploy that fails part-way and is run again, another writer getting in first) over a site of 60
// articles: more keys than one UpdateKeys call takes. scale/deploy-at-scale.test.ts runs the same
// steps over 1,000.
import { deploySteps } from './deploy-steps.ts';

deploySteps(60);
