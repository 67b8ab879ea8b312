// HTML and XML escaping, for the pages, the feeds and the error pages, and for the form Lambda's e-mail
// and problem page too (lambda/ bundles it): so it imports nothing.
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for HTML or XML, in element content and in quoted attributes alike. */
export function escapeMarkup(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
