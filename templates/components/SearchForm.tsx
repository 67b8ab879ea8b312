/**
 * The site search's form: a real GET form to /search, so that it works before (and without) any
 * script, and its address (/search?q=…) can be linked, reloaded and gone back to. The label is
 * visible; `id` keeps the input's id unique on the page.
 */
export function SearchForm({ id, label, query, className }: { id: string; label: string; query?: string; className?: string }) {
  return (
    <form role="search" action="/search" method="get" className={`search-form${className ? ` ${className}` : ''}`}>
      <label className="search-form__label" htmlFor={id}>{label}</label>
      <div className="search-form__row">
        <input className="search-form__input" type="search" id={id} name="q" defaultValue={query} autoComplete="off" spellCheck={false} enterKeyHint="search" />
        <button className="button button--primary" type="submit">Search</button>
      </div>
    </form>
  );
}
