import { describe, expect, it, vi } from 'vitest';
import { TAG_MANAGER_TIMEOUT_MS, trackFormSubmit } from '../../islands/shared/analytics.ts';

describe('form_submit', () => {
  it('without a tag manager, records the event and resolves at once', async () => {
    const win: { dataLayer?: unknown[] } = { dataLayer: [{ event: 'consent_update', analytics_consent: true, marketing_consent: false }] };
    await trackFormSubmit(win, { form: 'contact', email: 'a@b.co', organisation: 'Acme' });
    expect(win.dataLayer!.at(-1)).toEqual({ event: 'form_submit', form_name: 'contact', email: 'a@b.co', organisation: 'Acme' });
  });

  it('carries the e-mail address and organisation only while analytics consent is given', async () => {
    const layer: unknown[] = [{ event: 'consent_default', analytics_consent: false, marketing_consent: false }];
    const win = { dataLayer: layer };
    const lead = { form: 'contact', email: 'a@b.co', organisation: 'Acme' };
    await trackFormSubmit(win, lead);
    expect(layer.at(-1)).toEqual({ event: 'form_submit', form_name: 'contact' });
    layer.push({ event: 'consent_update', analytics_consent: true, marketing_consent: false });
    await trackFormSubmit(win, lead);
    expect(layer.at(-1)).toEqual({ event: 'form_submit', form_name: 'contact', email: 'a@b.co', organisation: 'Acme' });
    // Withdrawn later (marketing on, analytics off): the last choice is the one in force.
    layer.push({ event: 'consent_update', analytics_consent: false, marketing_consent: true });
    await trackFormSubmit(win, lead);
    expect(layer.at(-1)).toEqual({ event: 'form_submit', form_name: 'contact' });
    // No consent event at all (a page without the consent script): nothing personal.
    const bare: { dataLayer?: unknown[] } = {};
    await trackFormSubmit(bare, lead);
    expect(bare.dataLayer).toEqual([{ event: 'form_submit', form_name: 'contact' }]);
  });

  it('with a tag manager, waits for its callback', async () => {
    const win: { dataLayer: Array<Record<string, unknown>>; google_tag_manager: object } = { dataLayer: [], google_tag_manager: {} };
    let done = false;
    const p = trackFormSubmit(win, { form: 'contact' }).then(() => { done = true; });
    await Promise.resolve();
    expect(done).toBe(false);
    (win.dataLayer[0]!.eventCallback as () => void)();
    await p;
    expect(done).toBe(true);
  });

  it('with a tag manager that never calls back, gives up after 2 seconds', async () => {
    vi.useFakeTimers();
    const win = { dataLayer: [] as unknown[], google_tag_manager: {} };
    let done = false;
    const p = trackFormSubmit(win, { form: 'contact' }).then(() => { done = true; });
    await vi.advanceTimersByTimeAsync(TAG_MANAGER_TIMEOUT_MS - 1);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await p;
    expect(done).toBe(true);
    vi.useRealTimers();
  });
});
