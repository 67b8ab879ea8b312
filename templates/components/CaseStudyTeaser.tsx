import { Img } from './Img.tsx';

/** What a case-study teaser shows (in a grid, and on a service page): plain data, the image's alt text already decided. */
export interface CaseStudySummary {
  slug: string;
  href: string;
  client: string;
  title: string;
  subtitle: string;
  image?: { src: string; alt: string };
}

/** A case study's teaser (styled as a .card): the whole teaser links to it; the link's text names the client for screen readers. */
export function CaseStudyTeaser({ study }: { study: CaseStudySummary }) {
  return (
    <article className="card card--link case-card">
      {study.image && (
        <div className="card__media">
          <Img src={study.image.src} alt={study.image.alt} slot="card" />
        </div>
      )}
      <p className="case-card__client">{study.client}</p>
      <h3>{study.title}</h3>
      <p className="clamp-3">{study.subtitle}</p>
      <a className="card__link stretched" href={study.href}>
        Read Case Study<span className="visually-hidden"> about {study.client}</span>
      </a>
    </article>
  );
}

/** Case-study cards in the site's grid: one column small, two medium, three large. */
export function CaseStudyGrid({ studies }: { studies: CaseStudySummary[] }) {
  return (
    <ul className="grid grid--3 case-grid">
      {studies.map((study) => <li key={study.slug}><CaseStudyTeaser study={study} /></li>)}
    </ul>
  );
}
