import { CONSENT_EVENTS, consentField } from './consent.ts';

/** The tag manager's wait for its tags: at most this long before the page moves on. */
export const TAG_MANAGER_TIMEOUT_MS = 2000;

interface AnalyticsWindow { dataLayer?: unknown[]; google_tag_manager?: unknown }

/**
 * Whether the visitor allowed analytics, as the data layer itself records it: the page's first
 * script pushes the stored choice (or the denied default), and every later choice is pushed too,
 * so the last consent event is the one in force, for our code and the tag manager alike.
 */
export function analyticsAllowed(layer: readonly unknown[]): boolean {
  for (let i = layer.length - 1; i >= 0; i -= 1) {
    const entry = layer[i] as Record<string, unknown> | null;
    if (entry && (entry.event === CONSENT_EVENTS.update || entry.event === CONSENT_EVENTS.default)) return entry[consentField('analytics')] === true;
  }
  return false;
}

/**
 * Sends the 'form_submit' event: with the visitor's e-mail address and organisation only when they
 * allowed analytics, otherwise without them. When a tag manager is running, resolves once it says
 * its tags have fired, or after 2 seconds; without one, at once.
 */
export function trackFormSubmit(win: AnalyticsWindow, data: { form: string; email?: string; organisation?: string }): Promise<void> {
  const layer = (win.dataLayer ??= []);
  const personal = analyticsAllowed(layer);
  const event = {
    event: 'form_submit',
    form_name: data.form,
    ...(personal && data.email ? { email: data.email } : {}),
    ...(personal && data.organisation ? { organisation: data.organisation } : {}),
  };
  if (!win.google_tag_manager) {
    layer.push(event);
    return Promise.resolve();
  }
  return new Promise((done) => {
    const timer = setTimeout(done, TAG_MANAGER_TIMEOUT_MS);
    layer.push({ ...event, eventTimeout: TAG_MANAGER_TIMEOUT_MS, eventCallback: () => { clearTimeout(timer); done(); } });
  });
}
