/** A service on /services: its name, one line about it and a link whose text names it. */
export function ServiceTeaser({ href, name, summary }: { href: string; name: string; summary: string }) {
  return (
    <li className="card card--link service-card">
      <h3>{name}</h3>
      <p>{summary}</p>
      <a className="card__link stretched" href={href}>Explore {name}</a>
    </li>
  );
}
