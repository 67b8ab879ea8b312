import type { TocEntry } from '../../../src/content/markdown.ts';
import { PageHero } from '../../components/PageHero.tsx';
import { Toc } from '../../components/Toc.tsx';

export interface LegalPageProps { title: string; updated: string; html: string; toc: TocEntry[] }

/** /privacy-policy and /terms-of-service: the policy with a list of its sections. */
export function LegalPage({ title, updated, html, toc }: LegalPageProps) {
  return (
    <>
      <PageHero id="legal-title" eyebrow="Legal" heading={title}>
        <p>Last updated {updated}</p>
      </PageHero>
      <div className="section">
        <div className="container legal-layout">
          {toc.length > 0 && <div className="legal-layout__toc"><Toc id="on-this-page" heading="On this page" entries={toc} /></div>}
          <div className="prose" dangerouslySetInnerHTML={{ __html: html }} />
        </div>
      </div>
    </>
  );
}
