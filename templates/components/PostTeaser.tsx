import type { Post } from '../../src/content/load.ts';
import { BLOG_PLACEHOLDER_IMAGE } from '../../src/content/article-order.ts';
import { Img } from './Img.tsx';
import { PreviewNotice, type PreviewMark } from './PreviewMark.tsx';

export const DEFAULT_READING_TIME = '5 min read';

/** A category label and the address of its articles. */
export interface CategoryLink { name: string; href: string }

/**
 * What a post's teaser needs: the post without its body, its date as readers see it ('24 September 2025'),
 * its categories as links (the default where it names none), and in a preview build its mark.
 */
export type PostSummary = Pick<Post, 'slug' | 'title' | 'excerpt' | 'date' | 'readingTime' | 'image'> & {
  dateLabel: string;
  categories: CategoryLink[];
  preview?: PreviewMark;
};

/** The date, reading time and category tags of a post (each tag links to its category's articles). */
export function PostMeta({ post, className = '' }: { post: PostSummary; className?: string }) {
  return (
    <>
      <p className={`meta-line ${className}`.trim()}>
        <time dateTime={post.date}>{post.dateLabel}</time>
        <span aria-hidden="true">·</span>
        <span>{post.readingTime ?? DEFAULT_READING_TIME}</span>
      </p>
      <ul className="tags">
        {post.categories.map((c) => <li key={c.href}><a className="tag" href={c.href}>{c.name}</a></li>)}
      </ul>
    </>
  );
}

/**
 * A post's teaser in a grid (styled as a .card): the whole teaser opens the article (the title link is stretched), and
 * 'Read More' names its article for screen readers. data-post-card is the toast island's hook. `priority`: its image is
 * the page's LCP image (the first teaser of a list, whose image the first screen shows).
 */
export function PostTeaser({ post, headingLevel = 3, priority = false }: { post: PostSummary; headingLevel?: 2 | 3; priority?: boolean }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const href = `/blog/${post.slug}`;
  return (
    <article className="card card--link post-card" data-post-card>
      <div className="card__media">
        {post.image ? <Img src={post.image.src} alt={post.image.alt} slot="card" priority={priority} /> : <Img src={BLOG_PLACEHOLDER_IMAGE} alt="" slot="card" priority={priority} />}
      </div>
      {post.preview && <PreviewNotice mark={post.preview} variant="card" />}
      <PostMeta post={post} />
      <Heading className="post-card__title"><a className="stretched" href={href}>{post.title}</a></Heading>
      <p className="clamp-3">{post.excerpt}</p>
      <a className="card__link post-card__more" href={href}>Read More<span className="visually-hidden"> about {post.title}</span></a>
    </article>
  );
}
