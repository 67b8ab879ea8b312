import { ScriptIsland } from '../../../src/page-api/island.tsx';
import type { TocEntry } from '../../../src/content/markdown.ts';
import type { Faq as FaqData } from '../../../src/content/schemas.ts';
import { useSite } from '../../../src/page-api/site-context.tsx';
import { Faq } from '../../components/Faq.tsx';
import { Img } from '../../components/Img.tsx';
import { PostTeaser, PostMeta, type PostSummary } from '../../components/PostTeaser.tsx';
import { Section } from '../../components/Section.tsx';
import { ArrowLeft, MailIcon } from '../../../islands/shared/icons.tsx';
import { Toc } from '../../components/Toc.tsx';
import { Prose } from '../../components/Prose.tsx';
import type { ImageUse } from '../../../src/page-api/images.ts';
import { PreviewNotice } from '../../components/PreviewMark.tsx';
import { BLOG_PLACEHOLDER_IMAGE } from '../../../src/content/article-order.ts';
import { shareLinks } from './share-links.ts';

export interface BlogPostProps {
  post: PostSummary & { html: string; toc: TocEntry[]; faq: FaqData[]; bodyImages: ImageUse[] };
  related: PostSummary[];
}

const COMING_SOON = "This article's full content will be coming soon.";

function ShareLinks({ slug, title }: { slug: string; title: string }) {
  const share = shareLinks(useSite().settings.url, `/blog/${slug}`, title);
  const external = (href: string, label: string) => (
    <a className="share__link" href={href} target="_blank" rel="noopener noreferrer">
      {label}<span className="visually-hidden"> (opens in a new tab)</span>
    </a>
  );
  return (
    <section className="share" aria-labelledby="share-heading">
      <h2 id="share-heading" className="share__heading">Share this article</h2>
      <ul className="share__list">
        <li><a className="share__link" href={share.email}><MailIcon /> Email<span className="visually-hidden"> a link to {title}</span></a></li>
        <li>{external(share.linkedin, 'LinkedIn')}</li>
        <li>{external(share.x, 'X')}</li>
      </ul>
    </section>
  );
}

function AuthorBox() {
  const { author } = useSite().settings;
  return (
    <section className="author-box" aria-labelledby="author-heading">
      <h2 id="author-heading" className="author-box__heading">About the author</h2>
      <p className="author-box__name">{author.name}</p>
      <p className="author-box__role">{author.role}</p>
      <p>{author.bio}</p>
    </section>
  );
}

/** /blog/{slug}: one article, its FAQ, sharing, the author and two more to read. */
export function BlogPostPage({ post, related }: BlogPostProps) {
  const hasBody = post.html.trim() !== '';
  return (
    <>
      <article aria-labelledby="post-title">
        {post.preview && <PreviewNotice mark={post.preview} variant="banner" />}
        <header className="page-hero post-hero">
          <div className="container">
            <a className="back-link" href="/blog"><ArrowLeft /> Back to Insights</a>
            <h1 id="post-title">{post.title}</h1>
            <PostMeta post={post} className="post-hero__meta" />
          </div>
        </header>
        <div className="container post-body">
          <div className="post-body__media">
            <Img src={post.image?.src ?? BLOG_PLACEHOLDER_IMAGE} alt={post.image?.alt ?? ''} slot="article" priority />
          </div>
          {hasBody ? (
            <div className={`post-layout${post.toc.length ? ' post-layout--toc' : ''}`}>
              {post.toc.length > 0 && <div className="post-layout__toc"><Toc id="toc-heading" heading="In this article" entries={post.toc} /></div>}
              <Prose html={post.html} images={post.bodyImages} />
            </div>
          ) : (
            <div className="prose coming-soon">
              <p className="lead">{post.excerpt}</p>
              <p className="coming-soon__note">{COMING_SOON}</p>
            </div>
          )}
        </div>
        <Faq id="post-faq" heading="Frequently Asked Questions" items={post.faq} tone="alt" />
        <div className="container post-footer">
          <ShareLinks slug={post.slug} title={post.title} />
          <AuthorBox />
        </div>
      </article>
      {related.length > 0 && (
        <Section id="continue-reading" heading="Continue Reading" tone="alt">
          <ScriptIsland name="post-card-toast" hydrate="interaction">
            <ul className="grid grid--2 post-grid">
              {related.map((p) => <li key={p.slug}><PostTeaser post={p} headingLevel={3} /></li>)}
            </ul>
          </ScriptIsland>
        </Section>
      )}
    </>
  );
}
