/**
 * Numbered links to the pages of the article list: the first, the last and those near the current
 * one (which the route chose), with a gap shown where numbers are skipped. The current page is
 * marked, not linked away.
 */
export function Pagination({ pages, current }: { pages: Array<{ number: number; url: string }>; current: number }) {
  if (pages.length < 2) return null;
  const previous = pages.find((p) => p.number === current - 1);
  const next = pages.find((p) => p.number === current + 1);
  return (
    <nav className="pagination" aria-label="Pagination">
      <ul>
        {previous && (
          <li><a className="pagination__step" href={previous.url} rel="prev">Previous<span className="visually-hidden"> page</span></a></li>
        )}
        {pages.map((p, i) => [
          i > 0 && p.number > pages[i - 1]!.number + 1 && <li key={`gap-${p.number}`} className="pagination__gap" aria-hidden="true">…</li>,
          <li key={p.number}>
            <a className="pagination__number" href={p.url} aria-current={p.number === current ? 'page' : undefined}>
              <span className="visually-hidden">Page </span>{p.number}
            </a>
          </li>,
        ])}
        {next && (
          <li><a className="pagination__step" href={next.url} rel="next">Next<span className="visually-hidden"> page</span></a></li>
        )}
      </ul>
    </nav>
  );
}
