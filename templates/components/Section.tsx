import type { ReactNode } from 'react';

/** A page section with an optional eyebrow, heading and lead, labelled by its heading. */
export function Section({ id, eyebrow, heading, lead, tone, children, className }: {
  id: string; eyebrow?: string; heading: string; lead?: string; tone?: 'alt' | 'dark'; children?: ReactNode; className?: string;
}) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className={`section${tone ? ` section--${tone}` : ''}${className ? ` ${className}` : ''}`}>
      <div className="container">
        <header className="section-head">
          {eyebrow && <p className="eyebrow">{eyebrow}</p>}
          <h2 id={`${id}-heading`}>{heading}</h2>
          {lead && <p>{lead}</p>}
        </header>
        {children}
      </div>
    </section>
  );
}
