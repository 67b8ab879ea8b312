import type { TocEntry } from '../../src/content/markdown.ts';

/** Links to a document's section anchors. */
export function Toc({ id, heading, entries }: { id: string; heading: string; entries: TocEntry[] }) {
  return (
    <nav className="toc" aria-labelledby={id}>
      <h2 id={id} className="toc__heading">{heading}</h2>
      <ol>
        {entries.map((e) => (
          <li key={e.id} className={e.depth === 3 ? 'toc__sub' : undefined}><a href={`#${e.id}`}>{e.text}</a></li>
        ))}
      </ol>
    </nav>
  );
}
