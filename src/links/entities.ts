/** Character references in attribute values: enough of HTML's table for URLs and ids. */

const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0',
  copy: '\u00a9', reg: '\u00ae', times: '\u00d7', pound: '\u00a3', laquo: '\u00ab', raquo: '\u00bb',
  middot: '\u00b7', euro: '\u20ac', hellip: '\u2026', ndash: '\u2013', mdash: '\u2014',
  lsquo: '\u2018', rsquo: '\u2019', ldquo: '\u201c', rdquo: '\u201d', sol: '/', num: '#',
  quest: '?', equals: '=', colon: ':', period: '.', percnt: '%', plus: '+', commat: '@',
};

// The legacy names HTML still decodes without ';' (only these of the table above).
const LEGACY = new Set(['amp', 'lt', 'gt', 'quot', 'nbsp', 'copy', 'reg', 'times', 'pound', 'laquo', 'raquo', 'middot']);

const REFERENCE = /&(?:#([0-9]+);?|#[xX]([0-9a-fA-F]+);?|([a-zA-Z][a-zA-Z0-9]*)(;?))/g;

function fromCodePoint(code: number): string {
  if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(code);
}

function isAlnumOrEquals(ch: string | undefined): boolean {
  return ch !== undefined && (ch === '=' || /[a-zA-Z0-9]/.test(ch));
}

/** Decodes references as the HTML parser does inside an attribute value. */
export function decodeAttribute(value: string): string {
  if (value.indexOf('&') === -1) return value;
  return value.replace(REFERENCE, (match, dec: string | undefined, hex: string | undefined, name: string | undefined, semi: string, offset: number) => {
    if (dec !== undefined) return fromCodePoint(parseInt(dec, 10));
    if (hex !== undefined) return fromCodePoint(parseInt(hex, 16));
    if (name === undefined) return match;
    if (semi === ';') return NAMED[name] ?? match;
    // Without ';' an attribute keeps '&copy=2' as written (query strings), as the HTML spec says.
    if (!LEGACY.has(name) || isAlnumOrEquals(value[offset + match.length])) return match;
    return NAMED[name] ?? match;
  });
}
