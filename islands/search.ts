/**
 * The search page's island, React-free: it runs the query in the form through pagefind's JS API
 * (the static index in /pagefind/) and fills in what the server rendered empty. The form stays a real
 * GET form: the address always holds the query (/search?q=…), so a link, a reload or Back shows the
 * same results. Results show as typing pauses; the polite status region says how many, and focus
 * stays where the visitor left it.
 */
import { renderExcerpt } from './shared/excerpt.ts';

interface PagefindResultData { url: string; excerpt: string; meta: Record<string, string | undefined>; filters: Record<string, string[] | undefined> }
interface PagefindSearch { results: Array<{ id: string; data: () => Promise<PagefindResultData> }>; filters?: Record<string, Record<string, number>> }
interface Pagefind {
  options: (o: Record<string, unknown>) => Promise<void>;
  init: () => Promise<void>;
  filters: () => Promise<Record<string, Record<string, number>>>;
  search: (query: string, o?: { filters?: Record<string, string> }) => Promise<PagefindSearch | null>;
}

/** Results shown at first, and added by each 'Load more'. */
export const PAGE_SIZE = 10;
/** How long typing must pause before the query runs (and is announced). */
export const TYPING_PAUSE_MS = 300;

const dates = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
const dateLabel = (iso: string | undefined) => {
  const at = iso && /^\d{4}-\d{2}-\d{2}$/.test(iso) ? new Date(`${iso}T00:00:00Z`) : undefined;
  return at && !Number.isNaN(at.getTime()) ? dates.format(at) : undefined;
};
const plural = (n: number) => `${n} result${n === 1 ? '' : 's'}`;

export default function mount(root: HTMLElement, props: { index: string }): void {
  const form = root.querySelector<HTMLFormElement>('form[role="search"]')!;
  const input = form.querySelector<HTMLInputElement>('input[name="q"]')!;
  const status = root.querySelector<HTMLElement>('[data-search-status]')!;
  const alert = root.querySelector<HTMLElement>('[data-search-error]')!;
  const panel = root.querySelector<HTMLElement>('[data-search-results]')!;
  const filter = root.querySelector<HTMLElement>('[data-search-filter]')!;
  const options = root.querySelector<HTMLElement>('[data-search-filter-options]')!;
  const list = root.querySelector<HTMLOListElement>('[data-search-list]')!;
  const more = root.querySelector<HTMLButtonElement>('[data-search-more]')!;

  let loading: Promise<Pagefind> | undefined;
  const pagefind = () => (loading ??= (async () => {
    // A runtime address, not bundled: the index is built with the site, apart from the islands.
    const pf = (await import(/* webpackIgnore: true */ props.index)) as Pagefind;
    await pf.options({ excerptLength: 24 });
    await pf.init();
    // Loads the filter index: without it a search answers no counts per category.
    await pf.filters();
    return pf;
  })());

  let asked = 0;
  let category = '';
  let found: PagefindSearch['results'] = [];
  let shown = 0;

  const fail = (error: unknown) => {
    console.error('[search] the index could not be loaded', error);
    loading = undefined;
    panel.hidden = true;
    status.textContent = '';
    alert.textContent = 'Search is not available just now: the search index could not be loaded. Please try again later, or browse the categories below.';
  };

  const showMore = async (turn: number) => {
    const next = found.slice(shown, shown + PAGE_SIZE);
    const data = await Promise.all(next.map((r) => r.data()));
    if (turn !== asked) return;
    list.append(...data.map((d) => resultItem(d)));
    shown += next.length;
    more.hidden = shown >= found.length;
  };

  let shownOptions = '';
  const renderFilter = (counts: Record<string, number>, total: number) => {
    const names = Object.keys(counts).filter((n) => counts[n]! > 0).sort((a, b) => a.localeCompare(b, 'en-GB'));
    // A category no longer among the results is let go, so the list is never empty by a stale filter.
    if (category && !names.includes(category)) category = '';
    filter.hidden = names.length < 2;
    const choices = [['', `All (${total})`], ...names.map((n) => [n, `${n} (${counts[n]})`])];
    // The same choices (a filter changed, not the query): left as they are, so focus stays on the radio.
    if (JSON.stringify(choices) === shownOptions) return;
    shownOptions = JSON.stringify(choices);
    const focused = options.contains(document.activeElement) ? (document.activeElement as HTMLInputElement).value : undefined;
    options.replaceChildren(...choices.map(([value, text], i) => {
      const label = document.createElement('label');
      label.className = 'search__option';
      const radio = document.createElement('input');
      radio.type = 'radio';
      radio.name = 'category';
      radio.value = value!;
      radio.id = `search-category-${i}`;
      radio.checked = value === category;
      label.append(radio, document.createTextNode(` ${text}`));
      return label;
    }));
    if (focused !== undefined) options.querySelector<HTMLInputElement>(`input[value="${CSS.escape(focused)}"]`)?.focus();
  };

  const run = async (query: string) => {
    const turn = ++asked;
    const q = query.trim();
    if (!q) {
      panel.hidden = true;
      list.replaceChildren();
      status.textContent = '';
      return;
    }
    try {
      const pf = await pagefind();
      const all = await pf.search(q);
      const chosen = category ? await pf.search(q, { filters: { category } }) : all;
      if (turn !== asked) return;
      if (!all || !chosen) throw new Error('pagefind answered nothing');
      alert.textContent = '';
      renderFilter(all.filters?.category ?? {}, all.results.length);
      const results = category ? chosen.results : all.results;
      found = results;
      shown = 0;
      list.replaceChildren();
      panel.hidden = found.length === 0;
      await showMore(turn);
      if (turn !== asked) return;
      const within = category ? ` in ${category}` : '';
      status.textContent = found.length ? `${plural(found.length)} for “${q}”${within}` : `No results for “${q}”${within}. Try other words, or browse the categories below.`;
    } catch (error) {
      if (turn === asked) fail(error);
    }
  };

  /** The address holds the query: a new entry for a search the visitor sent, the same entry as they type. */
  const remember = (q: string, push: boolean) => {
    const url = new URL(location.href);
    if (q.trim()) url.searchParams.set('q', q.trim()); else url.searchParams.delete('q');
    if (url.href === location.href) return;
    if (push) history.pushState(null, '', url); else history.replaceState(null, '', url);
  };

  let pause: ReturnType<typeof setTimeout> | undefined;
  input.addEventListener('input', () => {
    clearTimeout(pause);
    pause = setTimeout(() => { remember(input.value, false); void run(input.value); }, TYPING_PAUSE_MS);
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearTimeout(pause);
    remember(input.value, true);
    void run(input.value);
  });
  options.addEventListener('change', (event) => {
    const radio = event.target as HTMLInputElement;
    if (radio.name !== 'category') return;
    category = radio.value;
    void run(input.value);
  });
  more.addEventListener('click', () => {
    const first = shown;
    void showMore(asked).then(() => {
      status.textContent = `Showing ${shown} of ${plural(found.length)}`;
      // The first new result takes focus, so the keyboard carries on where the list grew.
      list.children[first]?.querySelector('a')?.focus();
    });
  });
  window.addEventListener('popstate', () => {
    input.value = new URLSearchParams(location.search).get('q') ?? '';
    void run(input.value);
  });

  const initial = new URLSearchParams(location.search).get('q');
  if (initial !== null && !input.value) input.value = initial;
  if (input.value.trim()) void run(input.value);
}

/** One result: the title as text (never HTML), the kind or date and category, the excerpt with its matches marked. */
function resultItem(data: PagefindResultData): HTMLLIElement {
  const item = document.createElement('li');
  item.className = 'search__result';
  const heading = document.createElement('h3');
  const link = document.createElement('a');
  link.href = data.url;
  link.textContent = data.meta.title ?? data.url;
  heading.append(link);
  const about = document.createElement('p');
  about.className = 'search__meta';
  const date = dateLabel(data.meta.date);
  const kinds = [data.meta.kind, ...(data.meta.kind === 'Article' ? data.filters.category ?? [] : [])].filter(Boolean);
  about.textContent = [kinds.join(' · '), date].filter(Boolean).join(' · ');
  if (date && data.meta.date) {
    about.textContent = kinds.join(' · ') + ' · ';
    const time = document.createElement('time');
    time.dateTime = data.meta.date;
    time.textContent = date;
    about.append(time);
  }
  const excerpt = document.createElement('p');
  excerpt.className = 'search__excerpt';
  renderExcerpt(excerpt, data.excerpt);
  item.append(heading, about, excerpt);
  return item;
}
