import { describe, expect, it } from 'vitest';
import { inlineScripts } from '../../src/render/inline-scripts.ts';
import { securityHeaders } from '../../src/headers.ts';
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
