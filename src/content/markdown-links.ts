import type { Definition, Html, Link, LinkReference, Root } from 'mdast';
import { visit } from 'unist-util-visit';
import type { VFile } from 'vfile';
import { ASSESSMENT_FORMS, type AssessmentFormName } from './schemas.ts';
import { ASSESSMENT_FORM_SCHEME, EXTERNAL_ICON_PATHS, NEW_TAB_HINT, assessmentHref } from './assessment-forms.ts';
import { lineOf, stateOf } from './markdown-site.ts';

/** An address a document links to, with its line in the file. */
export interface DocumentLink { href: string; line?: number }

const isForm = (name: string): name is AssessmentFormName => (ASSESSMENT_FORMS as string[]).includes(name);
const formOf = (url: string) => url.startsWith(ASSESSMENT_FORM_SCHEME) ? url.slice(ASSESSMENT_FORM_SCHEME.length) : undefined;

/**
 * Every address a document links to (inline links, autolinks, definitions; not images), in
 * document order. An `assessment-form:` link is checked instead: its name must be a survey of the
 * settings. Runs before text directives become text, so that a link in one's label still counts.
 */
export function remarkCollectLinks() {
  return (tree: Root, vfile: VFile) => {
    const state = stateOf(vfile);
    visit(tree, (node) => {
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
    });
  };
}

const encode = (s: string) => s.replace(/&/g, '&#x26;').replace(/"/g, '&#x22;').replace(/</g, '&#x3C;');

/** The marks of a link that opens in a new tab: an icon to see, and words to hear. */
const NEW_TAB_MARKS = '<svg class="icon icon--external" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">'
  + `${EXTERNAL_ICON_PATHS.map((d) => `<path d="${d}"></path>`).join('')}</svg><span class="visually-hidden">${encode(NEW_TAB_HINT)}</span>`;

/**
 * `[label](assessment-form:name)` (or a reference to such a definition) → the survey's address from
 * the settings, opened in a new tab without an opener and marked so; an empty address falls back
 * to /dialog-assessment, in the same tab. Runs after remarkPlainChecks: the marks are raw HTML of ours.
 */
export function remarkSurveyLinks() {
  return (tree: Root, vfile: VFile) => {
    const { forms } = stateOf(vfile);
    const definitions = new Map<string, Definition>();
    visit(tree, 'definition', (node) => { if (!definitions.has(node.identifier)) definitions.set(node.identifier, node); });
    visit(tree, (node) => {
      if (node.type !== 'link' && node.type !== 'linkReference') return;
      const url = node.type === 'link' ? node.url : definitions.get(node.identifier)?.url;
      const form = url === undefined ? undefined : formOf(url);
      if (form === undefined || !isForm(form)) return; // unknown names are reported by remarkCollectLinks
      const { href, external } = assessmentHref({ assessmentForms: forms }, form);
      const target: Link | LinkReference = node;
      // hProperties keep the element's order of attributes: href (and title) first, then these.
      target.data = { ...target.data, hProperties: { href, ...(external ? { target: '_blank', rel: ['noopener', 'noreferrer'] } : {}) } };
      if (external) target.children.push({ type: 'html', value: NEW_TAB_MARKS } satisfies Html);
    });
  };
}
