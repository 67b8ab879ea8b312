import type { Definition, Html, Link, LinkReference } from 'mdast';
import { ASSESSMENT_FORMS, ASSESSMENT_FORM_SCHEME, EXTERNAL_ICON_PATHS, NEW_TAB_HINT, assessmentHref, type AssessmentFormName } from './assessment-forms.ts';
import { lineOf, type SiteStep } from './markdown-state.ts';

const isForm = (name: string): name is AssessmentFormName => (ASSESSMENT_FORMS as readonly string[]).includes(name);
const formOf = (url: string) => url.startsWith(ASSESSMENT_FORM_SCHEME) ? url.slice(ASSESSMENT_FORM_SCHEME.length) : undefined;

/**
 * Every address a document links to (inline links, autolinks, definitions; not images), in
 * document order. An `assessment-form:` link is checked instead: its name must be a survey of the
 * settings.
 */
export const collectLinks: SiteStep = (state) => ({
  enter(node) {
    if (node.type === 'definition') { state.links.push({ href: node.url, line: lineOf(state, node) }); return; }
    if (node.type !== 'link') return;
    const line = lineOf(state, node);
    const form = formOf(node.url);
    if (form === undefined) state.links.push({ href: node.url, line });
    else if (!isForm(form)) {
      state.linkErrors.push({
        file: state.file, line, path: 'body', message: `links to ${node.url}, which names no assessment form`,
        hint: `use one of ${ASSESSMENT_FORMS.map((n) => ASSESSMENT_FORM_SCHEME + n).join(', ')} (assessmentForms in content/site.yaml)`,
      });
    }
  },
});

const encode = (s: string) => s.replace(/&/g, '&#x26;').replace(/"/g, '&#x22;').replace(/</g, '&#x3C;');

/** The marks of a link that opens in a new tab: an icon to see, and words to hear. */
const NEW_TAB_MARKS = '<svg class="icon icon--external" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">'
  + `${EXTERNAL_ICON_PATHS.map((d) => `<path d="${d}"></path>`).join('')}</svg><span class="visually-hidden">${encode(NEW_TAB_HINT)}</span>`;

/**
 * `[label](assessment-form:name)` (or a reference to such a definition) → the survey's address from
 * the settings, opened in a new tab without an opener and marked so; an empty address falls back
 * to /dialog-assessment, in the same tab. Done after the walk: a definition may follow its
 * references, and the marks are raw HTML of ours, which plainChecks must not see.
 */
export const surveyLinks: SiteStep = (state) => {
  const definitions = new Map<string, Definition>();
  const links: Array<Link | LinkReference> = [];
  return {
    enter(node) {
      if (node.type === 'definition' && !definitions.has(node.identifier)) definitions.set(node.identifier, node);
      else if (node.type === 'link' || node.type === 'linkReference') links.push(node);
    },
    done() {
      for (const node of links) {
        const url = node.type === 'link' ? node.url : definitions.get(node.identifier)?.url;
        const form = url === undefined ? undefined : formOf(url);
        if (form === undefined || !isForm(form)) continue; // unknown names are reported by collectLinks
        const { href, external } = assessmentHref({ assessmentForms: state.forms }, form);
        // hProperties keep the element's order of attributes: href (and title) first, then these.
        node.data = { ...node.data, hProperties: { href, ...(external ? { target: '_blank', rel: ['noopener', 'noreferrer'] } : {}) } };
        if (external) node.children.push({ type: 'html', value: NEW_TAB_MARKS } satisfies Html);
      }
    },
  };
};
