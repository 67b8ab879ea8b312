import { useEffect, useState } from 'react';
import { toggleItem } from './shared/accordion-state.ts';

export interface AccordionProps { id: string; items: Array<{ question: string; answer: string }> }

/**
 * FAQ accordion. The server HTML is native <details>, so every answer can be read (and indexed)
 * without JavaScript; once hydrated it becomes the APG accordion: heading buttons with
 * aria-expanded and aria-controls, one panel open at a time, an open one closing when pressed again.
 */
export default function Accordion({ id, items }: AccordionProps) {
  const [enhanced, setEnhanced] = useState(false);
  const [open, setOpen] = useState<number | null>(null);
  useEffect(() => setEnhanced(true), []);

  if (!enhanced) {
    return (
      <div className="faq">
        {items.map((item, i) => (
          <details key={i} name={id} className="faq__item">
            <summary><span className="faq__q">{item.question}</span></summary>
            <div className="faq__a"><p>{item.answer}</p></div>
          </details>
        ))}
      </div>
    );
  }
  return (
    <div className="faq faq--enhanced">
      {items.map((item, i) => {
        const expanded = open === i;
        return (
          <div key={i} className="faq__item" data-open={expanded || undefined}>
            <h3 className="faq__heading">
              <button type="button" className="faq__button" id={`${id}-q${i}`} aria-expanded={expanded} aria-controls={`${id}-a${i}`} onClick={() => setOpen((o) => toggleItem(o, i))}>
                <span className="faq__q">{item.question}</span>
              </button>
            </h3>
            <div className="faq__a" id={`${id}-a${i}`} hidden={!expanded}><p>{item.answer}</p></div>
          </div>
        );
      })}
    </div>
  );
}
