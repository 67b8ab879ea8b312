// What `site leads` prints to the owner's terminal: a lead's text as its visitor typed it, but
// with nothing the terminal would act on. Validation already removes control and direction
// characters from new leads; this holds for records stored before that, or imported, too.

// C0 and C1 controls (ESC starts the sequences that erase lines and retitle the window), the
// direction controls that reorder what is shown, the line separators, and invisible characters.
const NON_PRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2069\ufeff]/g;
const NON_PRINTABLE_KEEPING_LINES = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2069\ufeff]/g;

const visible = (ch: string) => `\\u{${ch.codePointAt(0)!.toString(16)}}`;

/** One line of text: every non-printable character, line breaks included, shown as `\u{…}`. */
export function printableLine(text: string): string {
  return text.replace(NON_PRINTABLE, visible);
}

/** Text of several lines (an export to stdout): line breaks kept, everything else non-printable shown as `\u{…}`. */
export function printableText(text: string): string {
  return text.replace(NON_PRINTABLE_KEEPING_LINES, visible);
}

/** JSON text (its own line breaks kept: inside its strings they are escaped already) with every non-printable character in its strings written as a JSON escape (`\u0085`): the same data, safe to print. */
export function printableJson(json: string): string {
  return json.replace(NON_PRINTABLE_KEEPING_LINES, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
