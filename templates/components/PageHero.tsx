import type { ReactNode } from 'react';

/**
 * The dark introduction at the top of an inner page, labelled by its h1 (the page's only one): a
 * back link or anything else `before` the eyebrow, the heading, an introduction (`text`, or richer
 * `children`), a row of `actions`, and an optional `aside` (a figure) beside it all on wide screens.
 */
export function PageHero({ id, eyebrow, heading, text, actions, aside, before, className, children }: {
  id: string; eyebrow?: string; heading: string; text?: string; actions?: ReactNode; aside?: ReactNode;
  before?: ReactNode; className?: string; children?: ReactNode;
}) {
  const intro = (
    <>
      {before}
      {eyebrow && <p className="eyebrow">{eyebrow}</p>}
      <h1 id={id}>{heading}</h1>
      {text && <p>{text}</p>}
      {children}
      {actions && <div className="button-row">{actions}</div>}
    </>
  );
  return (
    <section className={`page-hero${className ? ` ${className}` : ''}`} aria-labelledby={id}>
      <div className={`container${aside ? ' split company-hero' : ''}`}>
        {aside ? <div>{intro}</div> : intro}
        {aside}
      </div>
    </section>
  );
}
