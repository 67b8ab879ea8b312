/**
 * A small HTML tag scanner: yields every start tag with its attributes, skipping comments,
 * doctypes, end tags and the bodies of raw-text elements (script, style, textarea…), following
 * the HTML tokenizer's rules for quoting so that a '>' inside a quoted value ends nothing.
 */
import { decodeAttribute } from './entities.ts';

export interface StartTag {
  /** Lower-cased tag name. */
  name: string;
  /** Lower-cased attribute names to decoded values; the first of duplicate attributes wins. */
  attrs: Map<string, string>;
}

// Elements whose content is text, not markup: a '<a href>' inside them is not a link.
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes']);

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d;
}

function isAlpha(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/** Index just past the comment that starts at `at` ('<!--'). */
function skipComment(html: string, at: number): number {
  const body = at + 4;
  if (html.startsWith('>', body)) return body + 1;
  if (html.startsWith('->', body)) return body + 2;
  const close = html.indexOf('-->', body);
  const bang = html.indexOf('--!>', body);
  if (close === -1 && bang === -1) return html.length;
  if (bang !== -1 && (close === -1 || bang < close)) return bang + 4;
  return close + 3;
}

/** Index just past the end tag `</name` (any case) that closes a raw-text element. */
function skipRawText(html: string, from: number, name: string): number {
  let i = from;
  for (;;) {
    const lt = html.indexOf('</', i);
    if (lt === -1) return html.length;
    const after = lt + 2 + name.length;
    if (html.slice(lt + 2, after).toLowerCase() === name && (after >= html.length || isSpace(html.charCodeAt(after)) || html[after] === '/' || html[after] === '>')) {
      return lt;
    }
    i = lt + 2;
  }
}

/** Parses attributes from `i` up to and including the tag's '>'. Returns the index after it, or -1 at end of input. */
function readAttributes(html: string, i: number, attrs: Map<string, string> | null): number {
  const n = html.length;
  for (;;) {
    while (i < n && (isSpace(html.charCodeAt(i)) || html[i] === '/')) i++;
    if (i >= n) return -1;
    if (html[i] === '>') return i + 1;
    const nameStart = i;
    i++; // the first character may be '=' and still be part of the name
    while (i < n && !isSpace(html.charCodeAt(i)) && html[i] !== '/' && html[i] !== '>' && html[i] !== '=') i++;
    const name = html.slice(nameStart, i).toLowerCase();
    while (i < n && isSpace(html.charCodeAt(i))) i++;
    let value = '';
    if (html[i] === '=') {
      i++;
      while (i < n && isSpace(html.charCodeAt(i))) i++;
      const quote = html[i];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, i + 1);
        if (close === -1) return -1;
        value = html.slice(i + 1, close);
        i = close + 1;
      } else {
        const start = i;
        while (i < n && !isSpace(html.charCodeAt(i)) && html[i] !== '>') i++;
        value = html.slice(start, i);
      }
    }
    if (attrs && !attrs.has(name)) attrs.set(name, decodeAttribute(value));
  }
}

/** Calls `onTag` for every start tag in document order. */
export function scanTags(html: string, onTag: (tag: StartTag) => void): void {
  const n = html.length;
  let i = 0;
  while (i < n) {
    const lt = html.indexOf('<', i);
    if (lt === -1) return;
    const next = html.charCodeAt(lt + 1);
    if (html.startsWith('<!--', lt)) {
      i = skipComment(html, lt);
    } else if (next === 0x21 /* ! */ || next === 0x3f /* ? */) {
      const gt = html.indexOf('>', lt + 2); // doctype, CDATA or a bogus comment
      i = gt === -1 ? n : gt + 1;
    } else if (next === 0x2f /* / */) {
      if (isAlpha(html.charCodeAt(lt + 2))) {
        const end = readAttributes(html, lt + 2, null); // end tags may carry (ignored) quoted attributes
        i = end === -1 ? n : end;
      } else {
        const gt = html.indexOf('>', lt + 2);
        i = gt === -1 ? n : gt + 1;
      }
    } else if (isAlpha(next)) {
      let j = lt + 1;
      while (j < n && !isSpace(html.charCodeAt(j)) && html[j] !== '/' && html[j] !== '>') j++;
      const name = html.slice(lt + 1, j).toLowerCase();
      const attrs = new Map<string, string>();
      const end = readAttributes(html, j, attrs);
      if (end === -1) return; // a tag cut off by the end of the file is dropped, as browsers do
      onTag({ name, attrs });
      i = RAW_TEXT.has(name) ? skipRawText(html, end, name) : end;
    } else {
      i = lt + 1; // a literal '<' in text
    }
  }
}
