// Which dependencies may run an install script is decided once, in package.json's allowScripts, and
// explained once, in the README's table. npm 11 warns on every `npm ci` about a package with an
// install script that allowScripts does not name, and a later npm skips its script, so a new one
// must be decided (allowed or denied) before it lands.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { allowScripts?: Record<string, boolean> };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };

/** The packages of the lockfile that have an install script, by name. */
const withScripts = [...new Set(Object.entries(lock.packages)
  .filter(([key, entry]) => key !== '' && entry.hasInstallScript)
  .map(([key]) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length)))].sort();

/** The README's rows: package, then 'yes' or 'no'. */
const readmeRows = new Map([...readFileSync('README.md', 'utf8').matchAll(/^\| `([^`]+)` \| (yes|no) \|/gm)].map((m) => [m[1]!, m[2] === 'yes']));

describe('install scripts', () => {
  it('are decided for every dependency that has one, and only for those', () => {
    expect(withScripts).toContain('esbuild');
    expect(Object.keys(pkg.allowScripts ?? {}).sort()).toEqual(withScripts);
  });

  it('name packages, not versions, each allowed or denied (the lockfile has no URLs to pin a version to)', () => {
    for (const [name, allowed] of Object.entries(pkg.allowScripts ?? {})) {
      expect(name).toMatch(/^(@[\w.-]+\/)?[\w.-]+$/);
      expect(typeof allowed).toBe('boolean');
    }
  });

  it('are explained in the README, one row each, saying what package.json says', () => {
    expect(Object.fromEntries(readmeRows)).toEqual(pkg.allowScripts);
  });
});
