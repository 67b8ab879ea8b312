// Every step of `site deploy` over a site of 1,000 articles (tests/deploy/deploy-at-scale.test.ts
// runs the same steps over 60).
import { deploySteps } from '../tests/deploy/deploy-steps.ts';

deploySteps(1000);
