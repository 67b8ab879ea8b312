import { describe, expect, it } from 'vitest';
import { ownUtf8, packValue } from '../src/pack-value.ts';

// A worker hands a page's document and an article body's cache entry to the main thread by
// transferring the buffer under them: that hands over the whole ArrayBuffer, so each must be one of
// its own, of its exact size. Buffer.from shares a pool's block between small strings.
describe('bytes a thread can hand over', () => {
  const page = `<!doctype html><p>Café data, “quoted”, £120 — ${'ünïcode '.repeat(3000)}</p>`;

  it('hold UTF-8 in a buffer of their own, of their exact size', () => {
    for (const bytes of [ownUtf8(page), ownUtf8('é'), packValue({ html: page, toc: [] })]) {
      expect(bytes.byteOffset).toBe(0);
      expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
    }
    expect(new TextDecoder().decode(ownUtf8(page))).toBe(page);
    expect(JSON.parse(new TextDecoder().decode(packValue({ html: page, toc: [] })))).toEqual({ html: page, toc: [] });
  });

  it('arrive whole when transferred, and leave nothing behind that another page could share', () => {
    const first = ownUtf8(page);
    const second = ownUtf8('<p>another page</p>');
    const moved = structuredClone(first, { transfer: [first.buffer as ArrayBuffer] });
    expect(new TextDecoder().decode(moved)).toBe(page);
    expect(first.byteLength).toBe(0);
    expect(new TextDecoder().decode(second)).toBe('<p>another page</p>');
  });
});
