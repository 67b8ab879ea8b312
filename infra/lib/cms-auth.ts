// The content manager's sign-in handler (lambda/cms-auth/): a Lambda with a Function URL of its own.
//
// Why a Function URL, not a path behind the distribution as the forms have (/api/*): nothing here
// is same-origin. The CMS opens the handler in a window of its own, GitHub redirects that window
// to the handler's /callback, and the handler posts the token to the site's window by postMessage,
// to the site's origin only. No form posts to it, so WAF and a secret origin header (which the forms
// need) buy nothing, and a cache behaviour would be one more to keep uncached. Its URL is the
// stack's CmsAuthUrl output: the OAuth app's callback is that URL with /callback, and
// content/site.yaml's cms.authUrl is the URL itself.
//
// The OAuth app's client secret is an SSM Parameter Store SecureString put there by hand, never in
// the repository or the template; the function reads it through the AWS Parameters and Secrets
// Lambda extension (a layer: no AWS SDK in the bundle), allowed ssm:GetParameter on that one name.
import { Arn, CfnOutput, Duration, Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, FunctionUrlAuthType, ParamsAndSecretsLayerVersion, ParamsAndSecretsVersions, Runtime } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import type { SiteSettings } from './settings.ts';

export interface CmsAuthProps {
  settings: SiteSettings & { cmsClientId: string };
  /** Folder with the sign-in handler's bundle, index.mjs (lambda/bundle-lambda.ts). */
  codeDir: string;
  /** The origin /admin is served from, the only one the token is posted to: the content manager's own host when it has one. */
  adminOrigin: string;
}

export class CmsAuth extends Construct {
  readonly handler: LambdaFunction;

  constructor(scope: Construct, id: string, props: CmsAuthProps) {
    super(scope, id);
    const { settings } = props;
    const parameter = settings.cmsSecretParameter;
    this.handler = new LambdaFunction(this, 'Handler', {
      description: `Content manager sign-in (GitHub OAuth) for ${settings.domainName}`,
      runtime: Runtime.NODEJS_22_X,
      architecture: Architecture.ARM_64,
      handler: 'index.handler',
      code: Code.fromAsset(props.codeDir),
      memorySize: 128,
      // GitHub's token endpoint is given ten seconds (lambda/cms-auth/handler.ts).
      timeout: Duration.seconds(15),
      environment: {
        CMS_CLIENT_ID: settings.cmsClientId,
        CMS_SECRET_PARAMETER: parameter,
        SITE_ORIGIN: props.adminOrigin,
        // What the token may reach: public repositories only, unless the site's repository is private.
        CMS_SCOPE: settings.cmsRepoVisibility === 'private' ? 'repo' : 'public_repo',
      },
      paramsAndSecrets: ParamsAndSecretsLayerVersion.fromVersion(ParamsAndSecretsVersions.V1_0_103),
      logGroup: new LogGroup(this, 'Logs', { retention: settings.logRetentionDays as RetentionDays }),
    });
    this.handler.addToRolePolicy(new PolicyStatement({
      actions: ['ssm:GetParameter'],
      resources: [Arn.format({ service: 'ssm', resource: 'parameter', resourceName: parameter.replace(/^\//, '') }, Stack.of(this))],
    }));
    const url = this.handler.addFunctionUrl({ authType: FunctionUrlAuthType.NONE });
    new CfnOutput(Stack.of(this), 'CmsAuthUrl', { value: url.url, description: "content/site.yaml's cms.authUrl; with callback appended, the GitHub OAuth app's callback URL" });
  }
}
