// Escaping for the two places visitor text lands: HTML (e-mail body, error page) and a mail header.

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => HTML_ESCAPES[ch] ?? ch);
}

// C0/C1 controls plus the Unicode line and paragraph separators, which some mail clients
// treat as line breaks.
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** Makes a value safe for a one-line header: control characters become a space, runs collapse. */
export function toHeaderText(value: string, maxLength = 200): string {
  const clean = value.replace(CONTROL_CHARS, ' ').replace(/\s+/g, ' ').trim();
  return clean.length > maxLength ? `${clean.slice(0, maxLength - 1)}…` : clean;
}
