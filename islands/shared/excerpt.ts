/**
 * Pagefind's excerpt is HTML: the page's words escaped, with <mark> around each match. It is put
 * into the page as DOM nodes, never as HTML: the text between the marks becomes text nodes (its
 * character references decoded), each marked run a <mark> holding text, and any other markup stays
 * text that reads as written. So nothing in an indexed page can add an element or an attribute.
 */
const REFERENCE = /&(?:#(\d+)|#[xX]([0-9a-fA-F]+)|(amp|lt|gt|quot|apos|nbsp));/g;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

const codePoint = (n: number) => (n > 0 && n <= 0x10ffff && (n < 0xd800 || n > 0xdfff) ? String.fromCodePoint(n) : '\ufffd');

/** The text an escaped run stands for. */
export function decodeText(escaped: string): string {
  return escaped.replace(REFERENCE, (_, dec?: string, hex?: string, name?: string) =>
    dec ? codePoint(Number(dec)) : hex ? codePoint(parseInt(hex, 16)) : NAMED[name!]!);
}

/** The excerpt as runs of text, each marked (a match) or not: the form the page is built from. */
export function excerptRuns(excerpt: string): Array<{ text: string; marked: boolean }> {
  const runs: Array<{ text: string; marked: boolean }> = [];
  let marked = false;
  for (const part of excerpt.split(/(<mark>|<\/mark>)/)) {
    if (part === '<mark>') marked = true;
    else if (part === '</mark>') marked = false;
    else if (part) runs.push({ text: decodeText(part), marked });
  }
  return runs;
}

/** The excerpt's runs as nodes in `into` (emptied first). */
export function renderExcerpt(into: HTMLElement, excerpt: string): void {
  into.replaceChildren(...excerptRuns(excerpt).map(({ text, marked }) => {
    if (!marked) return document.createTextNode(text);
    const mark = document.createElement('mark');
    mark.textContent = text;
    return mark;
  }));
}
