import { ScriptIsland } from '../../../src/page-api/island.tsx';
import type { PostSummary } from '../../components/PostTeaser.tsx';
import { PostTeaser } from '../../components/PostTeaser.tsx';
import { PageHero } from '../../components/PageHero.tsx';
import { ArrowLeft } from '../../../islands/shared/icons.tsx';
import { Pagination } from './Pagination.tsx';
import { SearchForm } from '../../components/SearchForm.tsx';

export interface BlogListProps {
  hero: { eyebrow: string; heading: string; text: string };
  /** The label of the link to the Atom feed (on /blog). */
  feedLink?: string;
  /** The search form's label (on /blog, when the site has search). */
  searchLabel?: string;
  /** On a category's pages: its name. */
  category?: string;
  posts: PostSummary[];
  current: number;
  /** How many list pages there are. */
  total: number;
  /** The page links to show (not every page: see pageLinks). */
  pages: Array<{ number: number; url: string }>;
}

/** /blog and /blog/category/<slug>, each with its /page/N: newest articles first, six a page. */
export function BlogListPage({ hero, feedLink, searchLabel, category, posts, current, total, pages }: BlogListProps) {
  const paged = total > 1;
  const name = category ? `Articles in ${category}` : 'Articles';
  return (
    <>
      <PageHero id="blog-title" eyebrow={hero.eyebrow} heading={hero.heading}
        before={category && <a className="back-link" href="/blog"><ArrowLeft /> All Insights</a>}>
        <p>{hero.text}</p>
        {searchLabel && <SearchForm id="blog-search" label={searchLabel} className="search-form--hero" />}
        {feedLink && <p className="page-hero__aside"><a href="/blog/feed.xml" type="application/atom+xml">{feedLink}</a></p>}
      </PageHero>
      <section className="section" aria-labelledby="articles-heading">
        <div className="container">
          <h2 id="articles-heading" className="visually-hidden">
            {paged ? `${name}, page ${current} of ${total}` : name}
          </h2>
          <ScriptIsland name="post-card-toast" hydrate="interaction">
            <ul className="grid grid--3 post-grid">
              {posts.map((post, i) => <li key={post.slug}><PostTeaser post={post} headingLevel={3} priority={i === 0} /></li>)}
            </ul>
          </ScriptIsland>
          <Pagination pages={pages} current={current} />
        </div>
      </section>
    </>
  );
}
