import { Command, CommanderError, InvalidArgumentError } from 'commander';

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
    .option('--root <dir>', 'the project folder (content/, templates/, islands/)', process.cwd());

  const port = (value: string) => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535');
    return n;
  };
  const url = (value: string) => {
    try { const u = new URL(value); if (!/^https?:$/.test(u.protocol)) throw new Error(); return u.href.replace(/\/$/, ''); } catch { throw new InvalidArgumentError('expected an http(s) URL such as https://www.example.com'); }
  };

  program.command('build')
    .description('render every page into the output folder')
    .option('--out <dir>', 'output folder', 'dist')
    .option('--site-url <url>', 'the public URL, for canonical links and the sitemap', url)
    .action(async (opts: { out: string; siteUrl?: string }) => {
      const { buildCommand } = await import('./build-command.ts');
      code = await buildCommand({ root: program.opts().root, ...opts }, io);
    });

  program.command('serve')
    .description('build, serve with live reload, and rebuild on changes')
    .option('--port <n>', 'port to listen on', port, 4321)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--out <dir>', 'output folder', 'dist')
    .action(async (opts: { port: number; host: string; out: string }) => {
      const { serve } = await import('./serve/serve.ts');
      code = await serve({ root: program.opts().root, outDir: opts.out, port: opts.port, host: opts.host, log: io.out, error: io.err });
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
    .description('upload the build to S3 (only what changed), delete stale files, invalidate CloudFront')
    .option('--dir <dir>', 'the built site', 'dist')
    .option('--bucket <name>', 'the S3 bucket (or SITE_BUCKET)')
    .option('--distribution-id <id>', 'the CloudFront distribution to invalidate (or SITE_DISTRIBUTION_ID)')
    .option('--region <region>', 'the bucket region (or SITE_REGION, AWS_REGION; default eu-west-2)')
    .option('--prefix <prefix>', 'a key prefix inside the bucket (or SITE_DEPLOY_PREFIX)')
    .option('--dry-run', 'print the plan and change nothing', false)
    .option('--force', 'upload every file, even unchanged ones (to rewrite their headers)', false)
    .action(async (opts: import('./deploy/command.ts').DeployFlags) => {
      const { deployCommand } = await import('./deploy/command.ts');
      code = await deployCommand(opts, io);
    });

  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
  return code;
}
