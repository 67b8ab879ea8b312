import { describe, expect, it } from 'vitest';
import { excerptRuns } from '../../islands/shared/excerpt.ts';

describe("pagefind's excerpt, made safe", () => {
  it('keeps the marks as marked runs and decodes the escaped text', () => {
    expect(excerptRuns('Fish &amp; <mark>chips</mark>, &lt;b&gt;bold&lt;/b&gt; &#39;q&#x27;')).toEqual([
      { text: 'Fish & ', marked: false },
      { text: 'chips', marked: true },
      { text: ", <b>bold</b> 'q'", marked: false },
    ]);
  });

  it('leaves any other markup as the text it is, so a page cannot add an element or attribute', () => {
    const runs = excerptRuns('<img src=x onerror=alert(1)><mark>data</mark><script>x</script>');
    expect(runs).toEqual([
      { text: '<img src=x onerror=alert(1)>', marked: false },
      { text: 'data', marked: true },
      { text: '<script>x</script>', marked: false },
    ]);
  });
});
