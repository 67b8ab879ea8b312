/**
 * micromark's HTML in hast-util-to-html's spelling, which the site printed before (remark-html):
 * the same elements and text, written byte for byte as then, so that no page changes by the switch.
 * micromark escapes & < > " everywhere and writes `<br />`; hast-util-to-html escapes only & and <
 * in text (as &#x26; &#x3C;), & " ' ` in attributes, writes `<br>`, and marks task lists with classes.
 *
 * It relies on what micromark emits without raw HTML: every '<' in its output opens a tag, and no
 * '>' appears inside one, so one scan tells tags from text.
 */
const IN_TEXT: Record<string, string> = { '&amp;': '&#x26;', '&lt;': '&#x3C;', '&gt;': '>', '&quot;': '"' };
const IN_ATTRIBUTE: Record<string, string> = { '&amp;': '&#x26;', '&lt;': '<', '&gt;': '>', '&quot;': '&#x22;', "'": '&#x27;', '`': '&#x60;' };
// The footnote section's tags, as mdast-util-to-hast builds them (boolean attributes, attribute order).
const FIXED: Record<string, string> = {
  '<section data-footnotes="" class="footnotes">': '<section data-footnotes class="footnotes">',
  '<h2 id="footnote-label" class="sr-only">': '<h2 class="sr-only" id="footnote-label">',
};

function spellTag(tag: string): string {
  const fixed = FIXED[tag];
  if (fixed) return fixed;
  let out = tag.replace(/&(?:amp|lt|gt|quot);|['`]/g, (m) => IN_ATTRIBUTE[m]!);
  if (out.endsWith(' />')) out = `${out.slice(0, -3)}>`;
  if (out.startsWith('<a ')) out = out.replace(' data-footnote-ref=""', ' data-footnote-ref');
  return out;
}

export function respell(html: string): string {
  const parts: string[] = [];
  // Open lists and items, as indexes into parts, so that a task checkbox can mark its item and list.
  const open: number[] = [];
  let last = 0;
  for (const match of html.matchAll(/<[^>]*>|&(?:amp|lt|gt|quot);/g)) {
    const token = match[0];
    if (match.index > last) parts.push(html.slice(last, match.index));
    last = match.index + token.length;
    if (token[0] === '&') { parts.push(IN_TEXT[token]!); continue; }
    if (/^<(?:ul|ol|li)[ >]/.test(token)) open.push(parts.length);
    else if (/^<\/(?:ul|ol|li)>/.test(token)) open.pop();
    else if (token.startsWith('<input type="checkbox"')) markTask(parts, open);
    parts.push(spellTag(token));
  }
  parts.push(html.slice(last));
  return parts.join('');
}

function markTask(parts: string[], open: number[]) {
  const item = open.at(-1);
  const list = open.at(-2);
  if (item === undefined || parts[item] !== '<li>') return;
  parts[item] = '<li class="task-list-item">';
  if (list !== undefined && !parts[list]!.includes('class=')) parts[list] = parts[list]!.replace(/>$/, ' class="contains-task-list">');
}
