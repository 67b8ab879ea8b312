import type { TocEntry } from '../../../src/content/markdown.ts';
import { PageHero } from '../../components/PageHero.tsx';
import { Toc } from '../../components/Toc.tsx';
import { Prose } from '../../components/Prose.tsx';
import type { ImageUse } from '../../../src/page-api/images.ts';

export interface LegalPageProps { title: string; updated: string; html: string; toc: TocEntry[]; bodyImages: ImageUse[] }

/** /privacy-policy and /terms-of-service: the policy with a list of its sections. */
export function LegalPage({ title, updated, html, toc, bodyImages }: LegalPageProps) {
  return (
    <>
      <PageHero id="legal-title" eyebrow="Legal" heading={title}>
        <p>Last updated {updated}</p>
      </PageHero>
      <div className="section">
        <div className="container legal-layout">
          {toc.length > 0 && <div className="legal-layout__toc"><Toc id="on-this-page" heading="On this page" entries={toc} /></div>}
          <Prose html={html} images={bodyImages} />
        </div>
      </div>
    </>
  );
}

/** The legal pages' template, by the name their routes give. */
export const templates = { legal: LegalPage };
