// The OAuth app's secret, from SSM Parameter Store (a SecureString), read through the AWS Parameters
// and Secrets Lambda extension on localhost:2773 (no SDK in the bundle). It is asked on every
// request: the extension keeps the value for its own TTL (SSM_PARAMETER_STORE_TTL, five minutes
// at most) and reads Parameter Store again after that, so a secret rotated with
// `aws ssm put-parameter --overwrite` is in use within that TTL, with no cold start needed.

export function parameterReader(name: string, env: NodeJS.ProcessEnv = process.env): () => Promise<string> {
  return async () => {
    const url = `http://localhost:${env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT ?? '2773'}/systemsmanager/parameters/get?name=${encodeURIComponent(name)}&withDecryption=true`;
    const res = await fetch(url, { headers: { 'X-Aws-Parameters-Secrets-Token': env.AWS_SESSION_TOKEN ?? '' }, signal: AbortSignal.timeout(5_000) });
    if (!res.ok) throw new Error(`parameter ${name}: ${res.status}`);
    const body = await res.json() as { Parameter?: { Value?: string } };
    if (!body.Parameter?.Value) throw new Error(`parameter ${name} is empty`);
    return body.Parameter.Value;
  };
}
