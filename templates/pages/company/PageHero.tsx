import type { ReactNode } from 'react';

/** The top of an inner page: eyebrow, the page's only h1, an introduction and optional buttons or media. */
export function PageHero({ id, eyebrow, heading, text, actions, aside, before }: {
  id: string; eyebrow?: string; heading: string; text?: string; actions?: ReactNode; aside?: ReactNode; before?: ReactNode;
}) {
  const body = (
    <div>
      {before}
      {eyebrow && <p className="eyebrow">{eyebrow}</p>}
      <h1 id={id}>{heading}</h1>
      {text && <p>{text}</p>}
      {actions && <div className="button-row">{actions}</div>}
    </div>
  );
  return (
    <section className="page-hero" aria-labelledby={id}>
      <div className={`container${aside ? ' split company-hero' : ''}`}>
        {body}
        {aside}
      </div>
    </section>
  );
}
