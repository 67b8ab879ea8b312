// The CDK app's contents: settings in, stacks out. bin/app.ts calls this with the real App and
// environment; the tests call it with their own, so they synthesise exactly what `cdk synth` does.
import path from 'node:path';
import { Annotations, type App } from 'aws-cdk-lib';
import { Function as CloudFrontFunction } from 'aws-cdk-lib/aws-cloudfront';
import { BuildOutputsError, readBuildOutputs } from './build-outputs.ts';
import { readSettings, type SiteSettings } from './settings.ts';
import { readLeadRetentionMonthsSync } from '../../src/leads/settings.ts';
import { DEPLOY_DIR } from '../../src/output/layout.ts';
import { EdgeAlarmsStack } from './edge-alarms.ts';
import { SiteStack } from './site-stack.ts';
import { WafStack } from './waf-stack.ts';

/** The repository's deploy folder (.site/deploy/), where `site build` and lambda/bundle-lambda.ts write. */
export const DEFAULT_DEPLOY_DIR = path.join(path.resolve(import.meta.dirname, '../..'), DEPLOY_DIR);

export interface DefinedApp {
  site: SiteStack;
  waf?: WafStack;
  /** CloudFront's alarms, in us-east-1: defined once distributionId is set. */
  edge?: EdgeAlarmsStack;
}

export function defineApp(app: App, env: Readonly<Record<string, string | undefined>>): DefinedApp {
  const settings = readSettings((key) => app.node.tryGetContext(key), env, { leadRetentionMonths: readLeadRetentionMonthsSync(path.resolve(import.meta.dirname, '../..')) });
  const deployDir = path.resolve(String(app.node.tryGetContext('deployDir') ?? env.SITE_DEPLOY_DIR ?? DEFAULT_DEPLOY_DIR));
  const build = readBuildOutputs(deployDir);
  if (build.hosts && build.hosts.site !== settings.domainName) {
    throw new BuildOutputsError([`${path.join(deployDir, 'routing.json')} was built for ${build.hosts.site}, with the content manager at ${build.hosts.cms}, but the stack deploys ${settings.domainName}: run \`npx site build --site-url https://${settings.domainName}\` first`]);
  }

  const site = new SiteStack(app, 'Site', {
    env: { account: settings.account, region: settings.region },
    description: `Static site ${settings.domainName}: S3, CloudFront, form handler`,
    settings,
    build,
  });
  const edge = defineEdgeAlarms(app, site, settings);
  if (settings.alarmTo.toLowerCase() === settings.mailTo.toLowerCase()) {
    Annotations.of(site).addWarningV2('site:alarm-to-mail-to',
      `The alarms are e-mailed to mailTo (${settings.mailTo}), the inbox they watch, as alarmTo is unset or the same address: if that inbox bounces, the bounce alarm bounces with it. Set -c alarmTo=<another address> (or SITE_ALARM_TO).`);
  }
  if (!settings.waf) return { site, ...(edge ? { edge } : {}) };
  const waf = new WafStack(app, 'SiteWaf', {
    env: { account: settings.account, region: 'us-east-1' },
    description: `Rate-based WAF rules for the CloudFront distribution of ${settings.domainName}, and their alarm`,
    apiRateLimit: settings.wafApiRateLimit,
    siteRateLimit: settings.wafSiteRateLimit,
    domainName: settings.domainName,
    alarmTo: settings.alarmTo,
  });
  return { site, waf, ...(edge ? { edge } : {}) };
}

/** The us-east-1 stack of CloudFront's alarms (edge-alarms.ts), once the distribution's id is given; until then, a warning. */
function defineEdgeAlarms(app: App, site: SiteStack, settings: SiteSettings): EdgeAlarmsStack | undefined {
  if (!settings.distributionId) {
    Annotations.of(site).addWarningV2('site:edge-alarms-not-defined',
      "distributionId is not set, so CloudFront's alarms (its 5xx rate, its functions' errors) are not defined: they live in us-east-1 and need the distribution's id. Deploy Site, then `cdk deploy SiteEdgeAlarms -c distributionId=<its DistributionId output>` (or set SITE_DISTRIBUTION_ID, which site deploy reads too).");
    return undefined;
  }
  // Every CloudFront Function of the site stack: their names are plain strings at synth, so the
  // other region's stack takes them without a cross-region reference.
  const functions = site.node.findAll()
    .filter((c): c is CloudFrontFunction => c instanceof CloudFrontFunction)
    .map((fn) => ({ id: fn.node.id, name: fn.functionName }));
  const edge = new EdgeAlarmsStack(app, 'SiteEdgeAlarms', {
    env: { account: settings.account, region: 'us-east-1' },
    description: `CloudFront's alarms for ${settings.domainName}: the distribution's 5xx rate and its functions' errors`,
    domainName: settings.domainName,
    alarmTo: settings.alarmTo,
    distributionId: settings.distributionId,
    functions,
  });
  // Deployed after the site (`cdk deploy --all`), whose distribution it watches.
  edge.addStackDependency(site);
  return edge;
}
