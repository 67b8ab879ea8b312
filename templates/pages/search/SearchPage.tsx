import type { BlogPageContent } from '../../../src/content/insights-schema.ts';
import { ScriptIsland } from '../../../src/page-api/island.tsx';
import { PageHero } from '../../components/PageHero.tsx';
import { SearchForm } from '../../components/SearchForm.tsx';

export interface SearchPageProps {
  content: BlogPageContent['search'];
  /** The category pages (and the case studies and services), with how many pages each lists: what a visitor without JavaScript can browse. */
  browse: Array<{ name: string; href: string; count: number }>;
  /** Where the island imports pagefind from. */
  index: string;
}

/**
 * /search: the form, and beneath it the results the `search` island finds in the static index
 * (pagefind). Everything the island fills is here already, empty: the polite status region (so the
 * count is announced as typing pauses, without moving focus), the alert for an index that cannot
 * load, the category filter and the list. Without JavaScript the page says so and offers the
 * category pages instead.
 */
export function SearchPage({ content, browse, index }: SearchPageProps) {
  return (
    <>
      <PageHero id="search-title" eyebrow={content.hero.eyebrow} heading={content.hero.heading} text={content.hero.text} />
      <section className="section search" aria-label="Search">
        <div className="container">
          <ScriptIsland name="search" hydrate="interaction" wakeParam="q" props={{ index }}>
            <div className="search__box">
              <SearchForm id="search-q" label={content.label} />
              <noscript><p className="search__noscript">{content.noScript}</p></noscript>
              <p className="search__status" role="status" data-search-status></p>
              <div className="search__error" role="alert" data-search-error></div>
            </div>
            <div className="search__results" data-search-results hidden>
              <h2 className="visually-hidden">Results</h2>
              <fieldset className="search__filter" data-search-filter>
                <legend>Filter by category</legend>
                <div className="search__filter-options" data-search-filter-options></div>
              </fieldset>
              <ol className="search__list" data-search-list></ol>
              <button className="button button--secondary search__more" type="button" data-search-more hidden>Load more results</button>
            </div>
          </ScriptIsland>
          <nav className="search__browse" aria-labelledby="search-browse">
            <h2 id="search-browse">{content.browse}</h2>
            <ul className="search__browse-list">
              {browse.map((b) => <li key={b.href}><a href={b.href}>{b.name}</a> <span className="search__count">({b.count})</span></li>)}
            </ul>
          </nav>
        </div>
      </section>
    </>
  );
}
