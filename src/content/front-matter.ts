/**
 * A markdown file's '---' front matter and body, split as gray-matter split them, without the YAML
 * parse it did on the side (parseYaml reads the front matter, with line numbers for errors).
 * `front` runs from just after the opening '---' (its line break included) to the closing '\n---';
 * `body` starts on the line after the closing delimiter.
 */
export function splitFrontMatter(source: string): { front: string; body: string } {
  const text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  if (!text.startsWith('---') || text.charAt(3) === '-') return { front: '', body: text };
  let rest = text.slice(3);
  // A language after the opening delimiter ('---yaml') is not part of the front matter.
  const newline = rest.search(/\r?\n/);
  if (newline > 0 && rest.slice(0, newline).trim()) rest = rest.slice(newline);
  const close = rest.indexOf('\n---');
  if (close === -1) return { front: rest, body: '' };
  return { front: rest.slice(0, close), body: rest.slice(close + 4).replace(/^\r/, '').replace(/^\n/, '') };
}
