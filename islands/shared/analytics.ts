/** The tag manager's wait for its tags: at most this long before the page moves on. */
export const TAG_MANAGER_TIMEOUT_MS = 2000;

interface AnalyticsWindow { dataLayer?: unknown[]; google_tag_manager?: unknown }

/**
 * Sends the 'form_submit' event. When a tag manager is running, resolves once it says its tags
 * have fired, or after 2 seconds; without one, at once.
 */
export function trackFormSubmit(win: AnalyticsWindow, data: { form: string; email?: string; organisation?: string }): Promise<void> {
  const layer = (win.dataLayer ??= []);
  const event = { event: 'form_submit', form_name: data.form, ...(data.email ? { email: data.email } : {}), ...(data.organisation ? { organisation: data.organisation } : {}) };
  if (!win.google_tag_manager) {
    layer.push(event);
    return Promise.resolve();
  }
  return new Promise((done) => {
    const timer = setTimeout(done, TAG_MANAGER_TIMEOUT_MS);
    layer.push({ ...event, eventTimeout: TAG_MANAGER_TIMEOUT_MS, eventCallback: () => { clearTimeout(timer); done(); } });
  });
}
