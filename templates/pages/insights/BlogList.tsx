import { ScriptIsland } from '../../../src/render/island.tsx';
import type { BlogPageContent } from '../../../src/content/insights-schema.ts';
import type { PostSummary } from '../../../src/routes/insights.ts';
import { PostCard } from '../../components/PostCard.tsx';
import { PageHero } from './PageHero.tsx';
import { Pagination } from './Pagination.tsx';

export interface BlogListProps {
  content: BlogPageContent;
  posts: PostSummary[];
  current: number;
  /** How many list pages there are. */
  total: number;
  /** The page links to show (not every page: see pageLinks). */
  pages: Array<{ number: number; url: string }>;
}

/** /blog and /blog/page/N: newest articles first, six a page. */
export function BlogListPage({ content, posts, current, total, pages }: BlogListProps) {
  const paged = total > 1;
  return (
    <>
      <PageHero id="blog-title" eyebrow={content.hero.eyebrow} heading={content.hero.heading}>
        <p>{content.hero.text}</p>
        <p className="page-hero__aside"><a href="/blog/feed.xml" type="application/atom+xml">{content.feedLink}</a></p>
      </PageHero>
      <section className="section" aria-labelledby="articles-heading">
        <div className="container">
          <h2 id="articles-heading" className="visually-hidden">
            {paged ? `Articles, page ${current} of ${total}` : 'Articles'}
          </h2>
          <ScriptIsland name="post-card-toast" hydrate="interaction">
            <ul className="grid grid--3 post-grid">
              {posts.map((post) => <li key={post.slug}><PostCard post={post} headingLevel={3} /></li>)}
            </ul>
          </ScriptIsland>
          <Pagination pages={pages} current={current} />
        </div>
      </section>
    </>
  );
}
