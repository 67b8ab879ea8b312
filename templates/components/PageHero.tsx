import type { ReactNode } from 'react';

/** The dark introduction at the top of a page, labelled by its h1. */
export function PageHero({ id, eyebrow, heading, children, className, back }: { id: string; eyebrow?: string; heading: string; children?: ReactNode; className?: string; back?: ReactNode }) {
  return (
    <section className={`page-hero${className ? ` ${className}` : ''}`} aria-labelledby={id}>
      <div className="container">
        {back}
        {eyebrow && <p className="eyebrow">{eyebrow}</p>}
        <h1 id={id}>{heading}</h1>
        {children}
      </div>
    </section>
  );
}
