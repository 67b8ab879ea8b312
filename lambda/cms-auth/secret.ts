// The OAuth app's secret, from SSM Parameter Store (a SecureString), read through the AWS Parameters
// and Secrets Lambda extension on localhost:2773 (no SDK in the bundle), once per cold start.

export function parameterReader(name: string, env: NodeJS.ProcessEnv = process.env): () => Promise<string> {
  let value: Promise<string> | undefined;
  return () => (value ??= (async () => {
    const url = `http://localhost:${env.PARAMETERS_SECRETS_EXTENSION_HTTP_PORT ?? '2773'}/systemsmanager/parameters/get?name=${encodeURIComponent(name)}&withDecryption=true`;
    const res = await fetch(url, { headers: { 'X-Aws-Parameters-Secrets-Token': env.AWS_SESSION_TOKEN ?? '' } });
    if (!res.ok) throw new Error(`parameter ${name}: ${res.status}`);
    const body = await res.json() as { Parameter?: { Value?: string } };
    if (!body.Parameter?.Value) throw new Error(`parameter ${name} is empty`);
    return body.Parameter.Value;
  })().catch((error: unknown) => { value = undefined; throw error; }));
}
