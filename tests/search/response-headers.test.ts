import { describe, expect, it } from 'vitest';
import { headersFile, headersFor, parseHeadersFile, SEARCH_PATHS } from '../../src/response-headers.ts';
import { siteSchema } from '../../src/content/schemas.ts';
import { pathProblems, policyProblems } from '../../quality/response-header-checks.ts';

const settings = siteSchema.parse({ name: 'N', description: 'D', url: 'https://www.example.com', email: 'a@example.com', location: 'L', officeHours: 'H', author: { name: 'A', role: 'R', bio: 'B' } });

describe('the search paths\u2019 headers', () => {
  const file = headersFile(settings, ['console.log(1)']);

  it("add 'wasm-unsafe-eval' to script-src on /search, under it and on /pagefind/, and nothing anywhere else", () => {
    const csp = (p: string) => headersFor(file, p)['content-security-policy']!;
    for (const p of ['/search', '/search/', '/search/index.html', '/pagefind/pagefind-worker.js']) expect(csp(p)).toMatch(/script-src 'self' 'wasm-unsafe-eval' 'sha256-/);
    for (const p of ['/', '/blog', '/searching', '/blog/search', '/assets/x.js', '/pagefind']) expect(csp(p)).not.toContain('wasm');
    expect(csp('/search').replace(" 'wasm-unsafe-eval'", '')).toBe(csp('/'));
    expect(csp('/search')).not.toMatch(/'unsafe-eval'|'unsafe-inline'|blob:|style-src[^;]*'unsafe/);
    expect(policyProblems(file.default)).toEqual([]);
    expect(pathProblems(file)).toEqual([]);
    expect(file.paths[0]!.patterns).toEqual(SEARCH_PATHS);
  });

  it('are not there when the site has no search', () => {
    expect(headersFile({ ...settings, search: false }, []).paths).toEqual([]);
  });

  it('the quality gate refuses a path entry that loosens more than that', () => {
    const loose = { ...file, paths: [{ ...file.paths[0]!, headers: { ...file.paths[0]!.headers, 'content-security-policy': file.paths[0]!.headers['content-security-policy']!.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'") } }] };
    expect(pathProblems(loose)).toEqual([expect.stringContaining('style-src allows too much'), expect.stringContaining("differs from the default by more than 'wasm-unsafe-eval'")]);
  });

  it('an older build\u2019s flat headers file is every path\u2019s headers', () => {
    const old = parseHeadersFile(JSON.stringify(file.default));
    expect(headersFor(old, '/search')).toEqual(file.default);
  });
});
