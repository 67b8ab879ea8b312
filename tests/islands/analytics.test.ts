import { describe, expect, it, vi } from 'vitest';
import { TAG_MANAGER_TIMEOUT_MS, trackFormSubmit } from '../../islands/shared/analytics.ts';

describe('form_submit', () => {
  it('without a tag manager, records the event and resolves at once', async () => {
    const win: { dataLayer?: unknown[] } = {};
    await trackFormSubmit(win, { form: 'contact', email: 'a@b.co', organisation: 'Acme' });
    expect(win.dataLayer).toEqual([{ event: 'form_submit', form_name: 'contact', email: 'a@b.co', organisation: 'Acme' }]);
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
