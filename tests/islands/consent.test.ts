import { describe, expect, it, vi } from 'vitest';
import { announceConsent, consentReducer, initialConsentState, makeSavedConsent, parseConsent, readConsent, type ConsentState } from '../../islands/shared/consent.ts';

const fresh = (): ConsentState => initialConsentState({ status: 'none' });

describe('consentReducer', () => {
  it('Accept All grants analytics and marketing and hides the bar', () => {
    expect(consentReducer(fresh(), { type: 'acceptAll' })).toMatchObject({ banner: false, dialog: false, saved: { analytics: true, marketing: true } });
  });

  it('Necessary Only refuses both', () => {
    expect(consentReducer(fresh(), { type: 'necessaryOnly' }).saved).toEqual({ analytics: false, marketing: false });
  });

  it('toggles flip a category in the draft without saving, and necessary never changes', () => {
    let s = consentReducer(fresh(), { type: 'openPreferences' });
    s = consentReducer(s, { type: 'toggle', category: 'analytics' });
    expect(s.draft).toEqual({ analytics: true, marketing: false });
    expect(s.saved).toBeUndefined();
    expect(consentReducer(s, { type: 'toggle', category: 'necessary' })).toBe(s);
  });

  it('Save stores the draft, closes the dialog and hides the bar', () => {
    let s = consentReducer(fresh(), { type: 'openPreferences' });
    s = consentReducer(s, { type: 'toggle', category: 'marketing' });
    s = consentReducer(s, { type: 'save' });
    expect(s).toEqual({ banner: false, dialog: false, draft: { analytics: false, marketing: true }, saved: { analytics: false, marketing: true } });
  });

  it('Cancel closes without saving and forgets the toggles', () => {
    let s = consentReducer(fresh(), { type: 'openPreferences' });
    s = consentReducer(s, { type: 'toggle', category: 'analytics' });
    s = consentReducer(s, { type: 'cancel' });
    expect(s).toMatchObject({ banner: true, dialog: false, draft: { analytics: false, marketing: false } });
    expect(s.saved).toBeUndefined();
  });

  it('reopening the preferences starts from the saved choice', () => {
    const s = initialConsentState({ status: 'valid', consent: makeSavedConsent({ analytics: true, marketing: false }, 1, new Date(0)) });
    expect(s.banner).toBe(false);
    expect(consentReducer(s, { type: 'openPreferences' })).toMatchObject({ dialog: true, draft: { analytics: true, marketing: false } });
  });
});

describe('stored consent', () => {
  it('round-trips a saved choice with its time and policy version', () => {
    const consent = makeSavedConsent({ analytics: true, marketing: false }, 3, new Date('2026-01-02T03:04:05Z'));
    expect(consent).toEqual({ necessary: true, analytics: true, marketing: false, timestamp: '2026-01-02T03:04:05.000Z', version: 3 });
    expect(parseConsent(JSON.stringify(consent), 3)).toEqual({ status: 'valid', consent });
  });

  it('asks again when the cookie policy version has changed', () => {
    expect(parseConsent(JSON.stringify(makeSavedConsent({ analytics: true, marketing: true }, 1, new Date())), 2).status).toBe('outdated');
  });

  it.each(['{not json', '"yes"', 'null', '{"analytics":"yes","marketing":false}', '[]'])('treats %s as corrupt, logs it and shows the bar', (raw) => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const stored = readConsent({ getItem: () => raw }, 1);
    expect(stored.status).toBe('corrupt');
    expect(error).toHaveBeenCalledOnce();
    expect(initialConsentState(stored).banner).toBe(true);
    error.mockRestore();
  });

  it('announces a choice to the data layer and to gtag', () => {
    const gtag = vi.fn();
    const win: { dataLayer?: unknown[]; gtag: typeof gtag } = { gtag };
    announceConsent(win, { analytics: true, marketing: false });
    expect(win.dataLayer).toEqual([{ event: 'consent_update', analytics_consent: true, marketing_consent: false }]);
    expect(gtag).toHaveBeenCalledWith('consent', 'update', { analytics_storage: 'granted', ad_storage: 'denied', ad_user_data: 'denied', ad_personalization: 'denied', personalization_storage: 'denied' });
  });
});
