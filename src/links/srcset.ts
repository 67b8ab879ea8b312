/** The URLs of a `srcset` attribute, following HTML's candidate parsing (URLs may contain commas). */
export function parseSrcset(value: string): string[] {
  const urls: string[] = [];
  const n = value.length;
  const isSpace = (ch: string | undefined) => ch === ' ' || ch === '\t' || ch === '\n' || ch === '\f' || ch === '\r';
  let i = 0;
  for (;;) {
    while (i < n && (isSpace(value[i]) || value[i] === ',')) i++;
    if (i >= n) return urls;
    const start = i;
    while (i < n && !isSpace(value[i])) i++;
    let url = value.slice(start, i);
    if (url.endsWith(',')) {
      // 'a.jpg,b.jpg': a trailing comma ends the candidate, with no descriptors.
      url = url.replace(/,+$/, '');
      if (url) urls.push(url);
      continue;
    }
    urls.push(url);
    let depth = 0;
    while (i < n) {
      const ch = value[i++];
      if (ch === '(') depth++;
      else if (ch === ')') depth = Math.max(0, depth - 1);
      else if (ch === ',' && depth === 0) break;
    }
  }
}
