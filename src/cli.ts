import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { instantOf } from './content/publication.ts';
import { registerLeadsCommands } from './leads/register.ts';
import { dropSpareThread } from './pool/spare-thread.ts';

// Each command imports what it needs when it runs, so that `site --help` loads commander alone
// (not React, esbuild or the AWS SDK).

/** Exit codes: 0 success, 1 a failure the user can fix, 2 a usage error. */
export async function main(argv: string[], io: { out: (s: string) => void; err: (s: string) => void } = { out: (s) => console.log(s), err: (s) => console.error(s) }): Promise<number> {
  process.env.NODE_ENV ??= 'production';
  let code = 0;
  const program = new Command()
    .name('site')
    .description('Build, serve and check the static site')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) })
    .option('--root <dir>', 'the project folder (content/, templates/, islands/)', process.cwd())
    // bin/site starts a thread for `site build` (pool/spare-thread.ts): any other command lets it go.
    .hook('preAction', (_program, command) => { if (command.name() !== 'build') dropSpareThread(); });

  const port = (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535');
    return n;
  };
  const url = (value: string) => {
    try { const u = new URL(value); if (!/^https?:$/.test(u.protocol)) throw new Error(); return u.href.replace(/\/$/, ''); } catch { throw new InvalidArgumentError('expected an http(s) URL such as https://www.example.com'); }
  };

  const CLOCK = 'expected an ISO date like 2026-12-01, or a date and time with its offset like 2026-12-01T09:00:00+00:00';
  const clock = (value: string) => {
    const at = instantOf(value);
    if (!at) throw new InvalidArgumentError(CLOCK);
    return at;
  };
  /** --now, else SITE_NOW, else the real time (undefined); a malformed SITE_NOW is a usage error like a malformed flag. */
  const nowOf = (flag: Date | undefined): Date | undefined | 'bad' => {
    if (flag) return flag;
    const env = process.env.SITE_NOW;
    if (!env) return undefined;
    const at = instantOf(env);
    if (!at) { io.err(`error: SITE_NOW '${env}': ${CLOCK}`); return 'bad'; }
    return at;
  };
  const NOW_HELP = 'build as if it were this moment (ISO date or date-time with offset; or SITE_NOW): decides which articles are published';

  program.command('build')
    .description('render every page into the output folder')
    .option('--out <dir>', 'output folder', 'dist')
    .option('--site-url <url>', 'the public URL, for canonical links and the sitemap', url)
    .option('--now <iso>', NOW_HELP, clock)
    .option('--json-summary', 'print the summary as JSON (for CI jobs), instead of the text', false)
    .option('--no-search', 'this once, build no search index and no search page (as site.yaml search: false does)')
    .option('--no-cms', 'this once, build no content manager at /admin (as leaving cms: out of site.yaml does)')
    .option('--full', 'build the whole site, even when only article bodies changed since the last build (a quick rebuild otherwise)', false)
    .option('--drafts', "also build the drafts and scheduled articles, each marked on its page, as site serve shows them: for a pull request's preview (site deploy --preview), never the live site", false)
    .action(async (opts: { out: string; siteUrl?: string; now?: Date; jsonSummary: boolean; search: boolean; cms: boolean; full: boolean; drafts: boolean }) => {
      const now = nowOf(opts.now);
      if (now === 'bad') { code = 2; return; }
      // A quick rebuild's first steps taken before the build's modules load: the thread that compares the content's stats answers meanwhile (pipeline/quick-start.ts).
      const quick = !opts.jsonSummary && !opts.full && !opts.drafts;
      if (!quick) dropSpareThread();
      const started = quick ? (await import('./pipeline/quick-start.ts')).startQuick({ root: program.opts().root, outDir: opts.out }) : undefined;
      started?.catch(() => undefined); // the quick rebuild says why it gave way
      const { buildCommand } = await import('./pipeline/build-command.ts');
      code = await buildCommand({ root: program.opts().root, out: opts.out, siteUrl: opts.siteUrl, now, clockFrom: opts.now ? '--now' : 'SITE_NOW', jsonSummary: opts.jsonSummary, search: opts.search, cms: opts.cms, full: opts.full, drafts: opts.drafts }, io, started);
    });

  program.command('serve')
    .description('build, serve with live reload, and rebuild on changes')
    .option('--port <n>', 'port to listen on', port, 4321)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--now <iso>', NOW_HELP, clock)
    .option('--cms-writes', 'let the content manager at /admin save when --host is not this machine alone (anyone who can reach it can then write content/)', false)
    .action(async (opts: { port: number; host: string; now?: Date; cmsWrites: boolean }) => {
      const now = nowOf(opts.now);
      if (now === 'bad') { code = 2; return; }
      const { serve } = await import('./serve/serve.ts');
      code = await serve({ root: program.opts().root, port: opts.port, host: opts.host, now, cmsWrites: opts.cmsWrites, log: io.out, error: io.err });
    });

  program.command('check-links')
    .description('check every internal link, asset and #fragment in the build')
    .option('--dir <dir>', 'the built site', 'dist')
    .option('--external', 'also fetch external http(s) links', false)
    .option('--json', 'print the findings as JSON', false)
    .action(async (opts: { dir: string; external: boolean; json: boolean }) => {
      const { checkLinksCommand } = await import('./links/command.ts');
      code = await checkLinksCommand({ ...opts, out: io.out });
    });

  program.command('deploy')
    .description('upload the build to S3 (only what changed), bring the routing store into step, invalidate CloudFront, delete what is gone')
    .option('--dir <dir>', 'the built site', 'dist')
    .option('--bucket <name>', 'the S3 bucket (or SITE_BUCKET)')
    .option('--distribution-id <id>', 'the CloudFront distribution to invalidate (or SITE_DISTRIBUTION_ID)')
    .option('--region <region>', 'the bucket region (or SITE_REGION, AWS_REGION; default eu-west-2)')
    .option('--prefix <prefix>', 'a key prefix inside the bucket (or SITE_DEPLOY_PREFIX)')
    .option('--kvs-arn <arn>', 'the CloudFront KeyValueStore that routes the pages (or SITE_KVS_ARN)')
    .option('--dry-run', 'print the plan, key changes too, and change nothing', false)
    .option('--force', 'upload every file, even unchanged ones (to rewrite their headers)', false)
    .option('--keep-stale', 'delete nothing this once, neither objects nor routing keys', false)
    .option('--settle <seconds>', 'wait this long after removing routing keys before deleting objects, so every CloudFront edge sees the keys go (or SITE_DEPLOY_SETTLE; default 60)')
    .option('--verify-url <url>', 'where readers reach the site, asked after the deploy for every changed and removed URL and a sample of the rest (or SITE_URL)')
    .option('--no-verify', 'do not ask the site what readers get after the deploy')
    .option('--preview <number>', "deploy the build as pull request <number>'s preview, at pr-<number>.<preview domain> (the previews' bucket and store: SITE_PREVIEW_BUCKET, SITE_PREVIEW_KVS_ARN)")
    .option('--remove-preview <number>', "take pull request <number>'s preview out: its routing keys, then its files")
    .action(async (opts: import('./deploy/command.ts').DeployFlags) => {
      const { deployCommand } = await import('./deploy/command.ts');
      code = await deployCommand(opts, io);
    });

  registerLeadsCommands(program, io, (c) => { code = c; });

  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
  return code;
}

