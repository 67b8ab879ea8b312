import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { CONSENT_EVENTS, CONSENT_KEY, NO_CONSENT, announceConsent, consentEvent, defaultSignals, parseConsent } from '../../islands/shared/consent.ts';
import { inlineScripts } from '../../src/render/inline-scripts.ts';
import { securityHeaders } from '../../src/response-headers.ts';
import { siteSchema, type SiteSettings } from '../../src/content/schemas.ts';

const base: SiteSettings = siteSchema.parse({
  name: 'Test', description: 'A site', url: 'https://www.example.com', email: 'hello@example.com',
  location: 'Dundee, United Kingdom', officeHours: 'Monday to Friday, 9am to 5:30pm',
  author: { name: 'Team', role: 'Consultants', bio: 'We write.' },
});

describe('head scripts and the policy that allows them', () => {
  it('without a tag manager: the consent defaults run, nothing third-party is loaded or allowed', () => {
    const scripts = inlineScripts(base);
    expect(scripts.join('\n')).not.toContain('googletagmanager');
    const csp = securityHeaders(base, scripts)['content-security-policy'];
    expect(csp).not.toContain('googletagmanager');
    expect(csp).not.toContain('unsafe-inline');
    expect(csp.match(/'sha256-[^']+'/g)).toHaveLength(scripts.length);
  });

  it('with a tag manager: its loader comes after the consent defaults, and only its hosts are allowed', () => {
    const settings = { ...base, tagManagerId: 'GTM-ABC1234' };
    const scripts = inlineScripts(settings);
    const consent = scripts.findIndex((s) => s.includes('"consent","default"'));
    const gtm = scripts.findIndex((s) => s.includes('googletagmanager.com/gtm.js'));
    expect(consent).toBeGreaterThanOrEqual(0);
    expect(gtm).toBeGreaterThan(consent);
    expect(scripts[gtm]).toContain('"GTM-ABC1234"');
    const csp = securityHeaders(settings, scripts)['content-security-policy'];
    expect(csp).toMatch(/script-src [^;]*https:\/\/www\.googletagmanager\.com/);
  });

  it('with a reviews widget: its host is allowed for scripts and frames, and nothing else is', () => {
    const csp = securityHeaders({ ...base, reviewsWidgetScript: 'https://widget.reviews.example/w.js' }, [])['content-security-policy'];
    expect(csp).toMatch(/script-src [^;]*https:\/\/widget\.reviews\.example/);
    expect(csp).toMatch(/frame-src https:\/\/widget\.reviews\.example/);
    expect(csp).toContain("frame-ancestors 'none'");
  });
});

/** Runs the head's consent script with `stored` in local storage: what it pushed, and whether it asked for the bar. */
function runHeadScript(script: string, stored: string | null) {
  const dataLayer: unknown[] = [];
  const attributes: Record<string, string> = {};
  const errors: unknown[] = [];
  const window = { dataLayer } as { dataLayer: unknown[]; gtag?: unknown };
  runInNewContext(script, {
    window,
    document: { documentElement: { setAttribute: (name: string, value: string) => { attributes[name] = value; } } },
    localStorage: { getItem: (key: string) => (key === CONSENT_KEY ? stored : null) },
    console: { error: (...args: unknown[]) => errors.push(args) },
    Error,
    JSON,
  });
  // gtag pushes its arguments object; as an array it compares with what the island sends.
  const pushed = dataLayer.map((entry) => (entry && typeof entry === 'object' && 'length' in entry ? Array.from(entry as ArrayLike<unknown>) : JSON.parse(JSON.stringify(entry))));
  return { pushed, asks: attributes['data-consent'] === 'ask', errors: errors.length };
}

describe('the head\'s consent script and the cookie island', () => {
  const version = 3;
  const script = inlineScripts({ ...base, cookiePolicyVersion: version })[0]!;
  const storedChoice = (over: object) => JSON.stringify({ necessary: true, analytics: true, marketing: false, timestamp: '2026-01-01T00:00:00.000Z', version, ...over });

  it.each([
    ['nothing stored', null],
    ['a choice for this policy', storedChoice({})],
    ['every cookie allowed', storedChoice({ analytics: true, marketing: true })],
    ['only the necessary', storedChoice({ analytics: false, marketing: false })],
    ['a choice for an older policy', storedChoice({ version: version - 1 })],
    ['not JSON', '{nope'],
    ['the wrong shape', JSON.stringify({ analytics: 'yes', marketing: false, version })],
    ['null', 'null'],
  ])('read %s the same way, and send the defaults and the stored choice as the island sends a choice', (_, stored) => {
    const { pushed, asks, errors } = runHeadScript(script, stored);
    const parsed = parseConsent(stored, version);
    const expected: unknown[] = [['consent', 'default', defaultSignals()], consentEvent(CONSENT_EVENTS.default, NO_CONSENT)];
    if (parsed.status === 'valid') {
      const island: unknown[] = [];
      announceConsent({ dataLayer: island, gtag: (...args) => island.push(args) }, parsed.consent);
      expected.push(island[1], island[0]);
    }
    expect(pushed).toEqual(expected);
    expect(asks).toBe(parsed.status !== 'valid');
    expect(errors).toBe(parsed.status === 'corrupt' ? 1 : 0);
  });

  it('deny everything optional by default and grant what the site needs', () => {
    expect(defaultSignals()).toEqual({
      analytics_storage: 'denied', ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied', personalization_storage: 'denied',
      functionality_storage: 'granted', security_storage: 'granted',
    });
  });
});
