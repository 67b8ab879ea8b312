import { describe, expect, it } from 'vitest';
import { contrastRatio, luminance, parseColor, textOver } from '../../quality/contrast.ts';
import { headerMismatches, policyProblems } from '../../quality/response-header-checks.ts';
import { median } from '../../quality/lighthouse.ts';
import { formatGate, verdict, type GateReport } from '../../quality/report.ts';
import { targets } from '../../quality/gate-urls.ts';
import { STRICT_HEADERS } from './broken-site.ts';

const gate = (name: string, failures: string[] = []): GateReport => ({ gate: name, columns: ['page', 'figure'], rows: [['/', '1']], failures, warnings: [], summary: `${name}: done` });

describe('the report', () => {
  it('ends with one line that names the gates that failed, or says all passed', () => {
    expect(verdict([gate('html'), gate('links')], 12)).toBe('check passed: html, links (12 s)');
    expect(verdict([gate('html', ['a', 'b']), gate('links'), gate('axe', ['c'])], 80)).toBe('check FAILED: html (2 failures), axe (1 failure); passed: links (80 s)');
  });

  it('prints each gate as a table with its failures under it', () => {
    const lines = formatGate(gate('html', ['/x: broken']));
    expect(lines[0]).toBe('── html ── FAIL');
    expect(lines).toContain('FAIL: /x: broken');
    expect(lines[1]).toMatch(/^page\s+figure$/);
  });
});

describe('strict headers', () => {
  it('finds a header that the server leaves out or sends otherwise', () => {
    const sent = new Headers({ ...STRICT_HEADERS, 'x-content-type-options': 'sniff' });
    sent.delete('referrer-policy');
    expect(headerMismatches(STRICT_HEADERS, sent)).toEqual(['x-content-type-options differs: sent "sniff"', 'referrer-policy missing']);
    expect(headerMismatches(STRICT_HEADERS, new Headers(STRICT_HEADERS))).toEqual([]);
  });

  it("refuses a policy that allows inline script, inline style (but by hash) or framing", () => {
    expect(policyProblems(STRICT_HEADERS)).toEqual([]);
    expect(policyProblems({ ...STRICT_HEADERS, 'content-security-policy': STRICT_HEADERS['content-security-policy']!.replace("style-src 'self'", "style-src 'self' 'sha256-abc='") })).toEqual([]);
    const loose = { ...STRICT_HEADERS, 'content-security-policy': "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-hashes' 'sha256-abc='; frame-ancestors *; form-action 'self'" };
    expect(policyProblems(loose)).toEqual([expect.stringMatching(/^script-src allows too much/), expect.stringMatching(/^style-src allows too much/), "frame-ancestors is not 'none'"]);
    expect(policyProblems({ ...loose, 'content-security-policy': "default-src 'self' 'unsafe-inline'; frame-ancestors 'none'; form-action 'self'" })).toEqual([expect.stringMatching(/^script-src/), expect.stringMatching(/^style-src/)]);
  });
});

describe('contrast arithmetic', () => {
  it('follows WCAG: black on white is 21:1, and translucent text is seen blended', () => {
    expect(contrastRatio(luminance([0, 0, 0]), luminance([255, 255, 255]))).toBeCloseTo(21, 5);
    expect(parseColor('rgba(255, 255, 255, 0.5)')).toEqual({ rgb: [255, 255, 255], alpha: 0.5 });
    expect(textOver({ rgb: [255, 255, 255], alpha: 0.5 }, [0, 0, 0])).toBeLessThan(textOver({ rgb: [255, 255, 255], alpha: 1 }, [0, 0, 0]));
  });
});

describe('what the browser gates visit', () => {
  it('every page, the 404 page, and each fallback that answers a page of its own', () => {
    const list = targets({ pageUrls: ['/', '/blog', '/blog/page/2'], redirects: {}, fallbacks: [{ prefix: '/blog/', redirect: '/blog', status: 302 }, { prefix: '/case-studies/', file: '/case-studies/404.html', status: 404 }], notFound: '/404.html' });
    expect(list.map((t) => [t.url, t.status])).toEqual([['/', 200], ['/blog', 200], ['/blog/page/2', 200], ['/quality-gate-no-such-page', 404], ['/case-studies/quality-gate-no-such-page', 404]]);
  });

  it('takes the median of Lighthouse runs', () => {
    expect(median([97, 91, 99])).toBe(97);
    expect(median([1, 2, 3, 4])).toBe(2.5);
  });
});
