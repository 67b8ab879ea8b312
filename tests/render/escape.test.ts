import { describe, expect, it } from 'vitest';
import { escapeMarkup } from '../../src/render/escape.ts';

describe('escapeMarkup', () => {
  it('leaves no character that could open a tag, an entity or end a quoted attribute', () => {
    const out = escapeMarkup(`</title><script>alert("x" & 'y')</script>`);
    expect(out).toBe('&lt;/title&gt;&lt;script&gt;alert(&quot;x&quot; &amp; &#39;y&#39;)&lt;/script&gt;');
    expect(out).not.toMatch(/[<>"']/);
  });

  it('keeps plain text as it is', () => {
    expect(escapeMarkup('Data in Dundee — 70% less reporting time')).toBe('Data in Dundee — 70% less reporting time');
  });
});
