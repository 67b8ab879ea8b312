export function NotFoundPage() {
  return (
    <section className="not-found container" aria-labelledby="not-found-heading">
      <p className="not-found__code" aria-hidden="true">404</p>
      <h1 id="not-found-heading"><span className="visually-hidden">404: </span>Page not found</h1>
      <p>The page you're looking for doesn't exist or has been moved.</p>
      <div className="button-row button-row--center">
        <a className="button button--secondary" href="/">Return to Home</a>
      </div>
    </section>
  );
}

/** The not-found page's template, by the name its route gives. */
export const templates = { notFound: NotFoundPage };
