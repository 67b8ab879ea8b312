import { describe, expect, it } from 'vitest';
import { TOAST_DURATION, dismissToast, emptyToasts, showToast } from '../../islands/shared/toast.ts';

describe('toast queue', () => {
  it('shows one toast at a time: a new one replaces the one showing', () => {
    let s = showToast(emptyToasts, { title: 'Opening article', description: 'Loading the full article' });
    expect(s.current).toMatchObject({ title: 'Opening article', variant: 'default', duration: TOAST_DURATION });
    s = showToast(s, { title: 'Error', description: 'Failed to send your message. Please try again.', variant: 'destructive' });
    expect(s.current).toMatchObject({ title: 'Error', variant: 'destructive' });
    expect(TOAST_DURATION).toBe(4000);
  });

  it('dismisses only the toast it names, so a stale timer cannot close a newer toast', () => {
    const first = showToast(emptyToasts, { title: 'One' });
    const second = showToast(first, { title: 'Two' });
    expect(dismissToast(second, first.current!.id)).toBe(second);
    expect(dismissToast(second, second.current!.id).current).toBeNull();
  });
});
