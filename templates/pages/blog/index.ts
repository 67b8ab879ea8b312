import { BlogListPage } from './BlogList.tsx';
import { BlogPostPage } from './BlogPost.tsx';

/** The blog's templates: the article list and one article. */
export const templates = {
  blogList: BlogListPage,
  blogPost: BlogPostPage,
};
