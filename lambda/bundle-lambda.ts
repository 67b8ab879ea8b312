// Packages the handler for AWS Lambda (nodejs22.x): one minified ES module and a zip of it,
// in .site/deploy/lambda/ (see src/output/layout.ts), never in dist/. Run with `npx tsx lambda/bundle-lambda.ts`; Lambda's handler
// setting is then `index.handler`.
//
// The AWS SDK is bundled rather than taken from the runtime. The runtime's copy is whatever
// version AWS last installed, and this code relies on recent behaviour: without
// `throwOnRequestTimeout` (@smithy/node-http-handler 4.4+) an SES request that hangs is only
// warned about, so a slow SES would become a Lambda timeout instead of a 503. Bundling pins
// the version the tests ran against, at the cost of a larger zip.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { createZip } from './zip.ts';
import { CMS_AUTH_DIR, lambdaDirOf } from '../src/output/layout.ts';

export interface LambdaBuild {
  bundlePath: string;
  zipPath: string;
  bundleBytes: number;
  zipBytes: number;
}

// Some bundled CommonJS packages call require() for Node built-ins; ESM output needs one.
const REQUIRE_SHIM =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

export async function buildLambda(
  options: { outDir?: string; entry?: string; cmsAuthDir?: string } = {},
): Promise<LambdaBuild> {
  const outDir = resolve(options.outDir ?? lambdaDirOf(resolve(import.meta.dirname, '..')));
  const entry = resolve(options.entry ?? join(import.meta.dirname, 'handler.ts'));
  await mkdir(outDir, { recursive: true });
  const bundlePath = join(outDir, 'index.mjs');

  const result = await build({
    entryPoints: [entry],
    outfile: bundlePath,
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    // Prefer the packages' ES module builds: smaller, and tree-shakable.
    mainFields: ['module', 'main'],
    minify: true,
    legalComments: 'eof',
    banner: { js: REQUIRE_SHIM },
    write: false,
    logLevel: 'warning',
  });
  const bundle = result.outputFiles[0];
  if (!bundle) throw new Error(`esbuild produced no output for ${entry}`);
  const code = Buffer.from(bundle.contents);
  await writeFile(bundlePath, code);

  const zipPath = join(outDir, 'send-contact-form.zip');
  const zip = createZip([{ name: 'index.mjs', data: code }]);
  await writeFile(zipPath, zip);
  // The content manager's sign-in: a function of its own, beside the forms' folder (no AWS SDK in it).
  if (!options.entry) await bundleCmsAuth(options.cmsAuthDir ?? join(dirname(outDir), CMS_AUTH_DIR));
  return { bundlePath, zipPath, bundleBytes: code.length, zipBytes: zip.length };
}

async function bundleCmsAuth(outDir: string): Promise<void> {
  await mkdir(outDir, { recursive: true });
  await build({
    entryPoints: [join(import.meta.dirname, 'cms-auth', 'index.ts')],
    outfile: join(outDir, 'index.mjs'),
    bundle: true, platform: 'node', target: 'node22', format: 'esm', minify: true, legalComments: 'eof', logLevel: 'warning',
  });
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const built = await buildLambda();
  console.log(`Lambda bundle  ${built.bundlePath}  ${kib(built.bundleBytes)}`);
  console.log(`Lambda zip     ${built.zipPath}  ${kib(built.zipBytes)}`);
}
