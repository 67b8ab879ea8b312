import { decodeString } from 'micromark-util-decode-string';
import type { Event } from 'micromark-util-types';
import type { ContentError } from './errors.ts';
import { ASSESSMENT_FORMS, type AssessmentFormName, type SiteSettings } from './schemas.ts';
import { ASSESSMENT_FORM_SCHEME, EXTERNAL_ICON_PATHS, NEW_TAB_HINT, assessmentHref } from './assessment-forms.ts';

/** An address a document links to, with its line in the file. */
export interface DocumentLink { href: string; line?: number }

const isForm = (name: string): name is AssessmentFormName => (ASSESSMENT_FORMS as string[]).includes(name);

/**
 * Every address a document links to (inline links, autolinks, definitions; not images, nor links
 * inside an image's description, which are only its text), in document order, read from micromark's
 * tokens. An `assessment-form:` link is checked instead: its name must be a survey of the settings.
 */
export function documentLinks(events: Event[], file: string, lineOffset: number, errors: ContentError[]): DocumentLink[] {
  const links: DocumentLink[] = [];
  const media: Array<{ image: boolean; line: number; resource?: boolean; href?: string }> = [];
  let definitionLine = 0;
  const inImage = () => media.some((m) => m.image);
  const record = (href: string, line: number) => {
    if (!href.startsWith(ASSESSMENT_FORM_SCHEME)) { links.push({ href, line: line + lineOffset }); return; }
    if (isForm(href.slice(ASSESSMENT_FORM_SCHEME.length))) return;
    errors.push({
      file, line: line + lineOffset, path: 'body', message: `links to ${href}, which names no assessment form`,
      hint: `use one of ${ASSESSMENT_FORMS.map((n) => ASSESSMENT_FORM_SCHEME + n).join(', ')} (assessmentForms in content/site.yaml)`,
    });
  };
  for (const [kind, token, context] of events) {
    const type = token.type as string;
    if (kind === 'exit') {
      if (type === 'link' || type === 'image') {
        const done = media.pop()!;
        if (!done.image && done.resource && !inImage()) record(done.href ?? '', done.line);
      }
      continue;
    }
    const slice = () => context.sliceSerialize(token);
    switch (type) {
      case 'link': case 'image': media.push({ image: type === 'image', line: token.start.line }); break;
      case 'resource': if (media.length) media.at(-1)!.resource = true; break;
      case 'resourceDestinationString': if (media.length) media.at(-1)!.href = decodeString(slice()); break;
      case 'definition': definitionLine = token.start.line; break;
      case 'definitionDestinationString': links.push({ href: decodeString(slice()), line: definitionLine + lineOffset }); break;
      case 'autolinkProtocol': case 'literalAutolinkHttp': if (!inImage()) record(slice(), token.start.line); break;
      case 'autolinkEmail': case 'literalAutolinkEmail': if (!inImage()) record(`mailto:${slice()}`, token.start.line); break;
      case 'literalAutolinkWww': if (!inImage()) record(`http://${slice()}`, token.start.line); break;
    }
  }
  return links;
}

const encode = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The marks of a link that opens in a new tab: an icon to see, and words to hear. */
const NEW_TAB_MARKS = '<svg class="icon icon--external" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">'
  + `${EXTERNAL_ICON_PATHS.map((d) => `<path d="${d}"></path>`).join('')}</svg><span class="visually-hidden">${encode(NEW_TAB_HINT)}</span>`;

/**
 * `[label](assessment-form:name)` in micromark's HTML → the survey's address from the settings,
 * opened in a new tab without an opener and marked so; an empty address falls back to
 * /dialog-assessment, in the same tab. Markdown links cannot nest, so the next `</a>` closes each.
 */
export function newTabLinks(html: string, forms: SiteSettings['assessmentForms']): string {
  if (!html.includes(`href="${ASSESSMENT_FORM_SCHEME}`)) return html;
  return html.replace(/<a href="assessment-form:([^"]*)"( title="[^"]*")?>([\s\S]*?)<\/a>/g, (link, name: string, title = '', label: string) => {
    if (!isForm(name)) return link; // reported by documentLinks
    const { href, external } = assessmentHref({ assessmentForms: forms }, name);
    return external
      ? `<a href="${encode(href)}"${title} target="_blank" rel="noopener noreferrer">${label}${NEW_TAB_MARKS}</a>`
      : `<a href="${encode(href)}"${title}>${label}</a>`;
  });
}
