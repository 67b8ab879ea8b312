import { toast } from './shared/toast.ts';

/** Clicking an article's teaser (its markup keeps the post-card names: the island's name and data-post-card are in every built page) says it is opening, without holding up the navigation. */
export default function mount(root: HTMLElement): void {
  root.addEventListener('click', (event) => {
    const link = event.target instanceof Element ? event.target.closest('a[href^="/blog/"]:not([href^="/blog/category/"])') : null;
    if (link && link.closest('[data-post-card]')) toast({ title: 'Opening article', description: 'Loading the full article' });
  });
}
