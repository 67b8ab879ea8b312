// The CDK app's contents: settings in, stacks out. bin/app.ts calls this with the real App and
// environment; the tests call it with their own, so they synthesise exactly what `cdk synth` does.
import path from 'node:path';
import type { App } from 'aws-cdk-lib';
import { readBuildOutputs } from './build-outputs.ts';
import { readSettings } from './settings.ts';
import { readLeadRetentionMonthsSync } from '../../src/leads/settings.ts';
import { SiteStack } from './site-stack.ts';
import { WafStack } from './waf-stack.ts';

/** The repository's build/ folder, where `site build` and lambda/bundle-lambda.ts write. */
export const DEFAULT_BUILD_DIR = path.resolve(import.meta.dirname, '../../build');

export interface DefinedApp {
  site: SiteStack;
  waf?: WafStack;
}

export function defineApp(app: App, env: Readonly<Record<string, string | undefined>>): DefinedApp {
  const settings = readSettings((key) => app.node.tryGetContext(key), env, { leadRetentionMonths: readLeadRetentionMonthsSync(path.resolve(import.meta.dirname, '../..')) });
  const buildDir = path.resolve(String(app.node.tryGetContext('buildDir') ?? env.SITE_BUILD_DIR ?? DEFAULT_BUILD_DIR));
  const build = readBuildOutputs(buildDir);

  const site = new SiteStack(app, 'Site', {
    env: { account: settings.account, region: settings.region },
    description: `Static site ${settings.domainName}: S3, CloudFront, form handler`,
    settings,
    build,
  });
  if (!settings.waf) return { site };
  const waf = new WafStack(app, 'SiteWaf', {
    env: { account: settings.account, region: 'us-east-1' },
    description: `Rate-based WAF rules for the CloudFront distribution of ${settings.domainName}`,
    apiRateLimit: settings.wafApiRateLimit,
    siteRateLimit: settings.wafSiteRateLimit,
  });
  return { site, waf };
}
