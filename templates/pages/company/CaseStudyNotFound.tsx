/** Answered with status 404 for any /case-studies/<slug> that has no case study. */
export function CaseStudyNotFoundPage() {
  return (
    <section className="not-found container" aria-labelledby="case-study-not-found-heading">
      <p className="not-found__code" aria-hidden="true">404</p>
      <h1 id="case-study-not-found-heading">Case Study Not Found</h1>
      <p>The case study you're looking for doesn't exist or has been moved.</p>
      <div className="button-row button-row--center">
        <a className="button button--secondary" href="/testimonials">Back to Testimonials</a>
      </div>
    </section>
  );
}
