import { describe, expect, it } from 'vitest';
import { renderToString } from 'react-dom/server';
import { Island, IslandCollector, IslandCollectorContext, serializeProps } from '../../src/page-api/island.tsx';
import MobileMenu from '../../islands/mobile-menu.tsx';

const hostile = { title: '</script><script>alert(1)</script><!-- x', cta: { label: '\u2028&amp;', href: '/contact' }, links: [] };

describe('island props', () => {
  it('serialises props so that no markup can break out of the script element', () => {
    const json = serializeProps(hostile);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(hostile);
  });

  it('renders a marker with the name, strategy, escaped props and the server HTML', () => {
    const collector = new IslandCollector();
    const html = renderToString(
      <IslandCollectorContext.Provider value={collector}>
        <Island component={MobileMenu} hydrate="interaction" props={hostile} />
      </IslandCollectorContext.Provider>,
    );
    expect(html).toMatch(/^<div class="island" data-island="mobile-menu" data-hydrate="interaction">/);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(html).not.toContain('<!-- x');
    const json = /<script type="application\/json">(.*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(JSON.parse(json)).toEqual(hostile);
    expect(html).toMatch(/<button type="button" class="menu-toggle"[^>]*aria-expanded="false"/);
    expect([...collector.used]).toEqual([['mobile-menu', new Set(['interaction'])]]);
  });

  it('refuses a component that is not a registered island', () => {
    const NotAnIsland = () => <p>no</p>;
    expect(() => renderToString(<Island component={NotAnIsland} hydrate="load" props={{}} />)).toThrow(/not registered in islands\/index.ts/);
  });
});
