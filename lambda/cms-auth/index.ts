// Lambda entry point of the content manager's sign-in (nodejs22.x, bundled on its own by
// bundle-lambda.ts; handler `index.handler`). Its settings come from the stack: the GitHub OAuth
// app's client id, the name of the SSM parameter that holds its secret, the site's origin, and the
// scope asked of GitHub (public_repo, or repo for a private repository). The
// callback is this function's own URL (the Function URL the request came to), which the OAuth app
// registers; GitHub refuses any other, so a forged Host gains nothing.
import type { HttpEvent, HttpHandler } from '../event.ts';
import { createCmsAuthHandler } from './handler.ts';
import { parameterReader } from './secret.ts';

function setting(name: string): string {
  const value = process.env[name]?.trim();
  if (!value) throw new Error(`cms-auth: ${name} is not set`);
  return value;
}

const clientId = setting('CMS_CLIENT_ID');
const clientSecret = parameterReader(setting('CMS_SECRET_PARAMETER'));
const siteOrigin = new URL(setting('SITE_ORIGIN')).origin;
const scope = setting('CMS_SCOPE');
if (scope !== 'public_repo' && scope !== 'repo') throw new Error(`cms-auth: CMS_SCOPE is ${scope}, not public_repo or repo`);
const handlers = new Map<string, HttpHandler>();

export const handler: HttpHandler = (event: HttpEvent & { requestContext?: { domainName?: string } }) => {
  const domain = event.requestContext?.domainName ?? event.headers?.host ?? '';
  let forDomain = handlers.get(domain);
  if (!forDomain) {
    forDomain = createCmsAuthHandler({ clientId, clientSecret, scope, siteOrigin, callbackUrl: `https://${domain}/callback` });
    handlers.set(domain, forDomain);
  }
  return forDomain(event);
};
