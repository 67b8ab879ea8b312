// A mail header is one line of plain text: what visitor text must become to be one.

// C0/C1 controls plus the Unicode line and paragraph separators, which some mail clients
// treat as line breaks.
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

// Direction overrides and isolates can make a subject display reversed or reordered; zero-width
// characters and the byte-order mark hide text. None of them belongs in a header.
const INVISIBLE_FORMATTING = /[\u202a-\u202e\u2066-\u2069\u200b-\u200d\u2060\ufeff]/g;

/**
 * Makes a value safe for a one-line header: control characters become a space, invisible
 * formatting goes, runs collapse, and a long value is cut to `maxLength` characters (code
 * points, so an emoji is never split into halves the SDK cannot encode).
 */
export function toHeaderText(value: string, maxLength = 200): string {
  const clean = value.replace(INVISIBLE_FORMATTING, '').replace(CONTROL_CHARS, ' ').replace(/\s+/g, ' ').trim();
  const chars = Array.from(clean);
  return chars.length > maxLength ? `${chars.slice(0, maxLength - 1).join('')}…` : clean;
}
