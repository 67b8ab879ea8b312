/** Client quotes as a list of figures. The carousel island enhances this; the content is here first. */
export interface Quote { quote: string; attribution: string }

export function Testimonials({ items }: { items: Quote[]; label: string }) {
  return (
    <ul className="carousel__track">
      {items.map((item, i) => (
        <li key={i} className="card">
          <figure className="quote">
            <blockquote><p>{item.quote}</p></blockquote>
            <figcaption>{item.attribution}</figcaption>
          </figure>
        </li>
      ))}
    </ul>
  );
}
