import { directiveHtml, type Directive } from 'micromark-extension-directive';
import type { CompileContext, HtmlExtension, Token } from 'micromark-util-types';
import type { ContentError } from './errors.ts';

declare module 'micromark-util-types' {
  interface CompileData { siteHeadingRank?: number; siteTaskChecked?: boolean }
  // GFM's task-list tokens, declared by a package we reach only through micromark-extension-gfm.
  interface TokenTypeMap { taskListCheck: 'taskListCheck'; taskListCheckValueChecked: 'taskListCheckValueChecked' }
}

export interface TocEntry { id: string; text: string; depth: number }

export function slugify(text: string): string {
  return text.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/['’]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

/** Container directives authors may use, each turned into one element. */
const CONTAINERS: Record<string, { tag: string; className: string; heading?: string; role?: string }> = {
  fix: { tag: 'div', className: 'fix-box', heading: 'How to Fix It', role: 'note' },
  note: { tag: 'div', className: 'note-box' },
  sign: { tag: 'section', className: 'warning-sign' },
};

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"' };
const VOID = /^<(?:br|hr|img|input)\b/;

/** The text a reader sees in a fragment of micromark's HTML, footnote numbers left out. */
function textOf(html: string): string {
  return html.replace(/<sup><a [^>]*data-footnote-ref[^>]*>[^<]*<\/a><\/sup>/g, '').replace(/<[^>]*>/g, '').replace(/&(?:amp|lt|gt|quot);/g, (e) => ENTITIES[e]!);
}

/** A box's children side by side, as remark printed them: the line breaks between its blocks go, those inside them stay. */
function joinBlocks(html: string): string {
  let depth = 0;
  return html.replace(/<(\/?)[^>]*>|\n/g, (m, closing: string) => {
    if (m === '\n') return depth ? m : '';
    if (closing) depth--;
    else if (!VOID.test(m)) depth++;
    return m;
  });
}

/**
 * micromark HTML extensions for the site's markdown: heading ids and the table of contents, the
 * :::fix / :::note / :::sign boxes, text directives put back as text (prose like '5:30pm' parses as
 * one), and an error, with its line, for raw HTML and for unknown directives.
 */
export function siteHtml(file: string, lineOffset: number, out: { toc: TocEntry[]; errors: ContentError[] }): HtmlExtension[] {
  const used = new Map<string, number>();
  const fail = (token: Token, message: string, hint: string) => out.errors.push({ file, line: token.start.line + lineOffset, path: 'body', message, hint });
  const rawHtml = function (this: CompileContext, token: Token): undefined {
    fail(token, 'contains raw HTML, which the site does not allow in markdown', 'use a directive such as :::fix … ::: for boxes');
  };

  function heading(this: CompileContext, rank: number, inner: string) {
    const text = textOf(inner);
    const base = slugify(text) || 'section';
    const n = used.get(base) ?? 0;
    used.set(base, n + 1);
    const id = n ? `${base}-${n + 1}` : base;
    if (rank === 2 || rank === 3) out.toc.push({ id, text, depth: rank });
    this.lineEndingIfNeeded();
    this.tag(`<h${rank} id="${this.encode(id)}">`);
    this.raw(inner);
    this.tag(`</h${rank}>`);
  }

  const headings: HtmlExtension = {
    // The id needs the heading's text, so its content is collected before the opening tag is written.
    enter: { atxHeading() { this.buffer(); this.setData('siteHeadingRank'); } },
    exit: {
      atxHeadingSequence(token) {
        if (this.getData('siteHeadingRank') === undefined) this.setData('siteHeadingRank', this.sliceSerialize(token).length);
      },
      atxHeading() {
        heading.call(this, this.getData('siteHeadingRank')!, this.resume());
      },
      setextHeading() {
        heading.call(this, this.getData('headingRank')!, this.resume());
        this.setData('slurpAllLineEndings');
        this.setData('headingRank');
      },
    },
  };

  // hast-util-to-html's attribute order and spelling; the classes of the item and list are added by respell().
  const tasks: HtmlExtension = {
    enter: { taskListCheck() { this.setData('siteTaskChecked', false); } },
    exit: {
      taskListCheckValueChecked() { this.setData('siteTaskChecked', true); },
      taskListCheck() { this.tag(`<input type="checkbox"${this.getData('siteTaskChecked') ? ' checked' : ''} disabled>`); },
    },
  };

  const checks: HtmlExtension = {
    enter: {
      htmlFlow(token) { this.lineEndingIfNeeded(); rawHtml.call(this, token); },
      htmlText: rawHtml,
      directiveContainerName(token) {
        const name = this.sliceSerialize(token);
        if (!CONTAINERS[name]) fail(token, `uses the unknown directive :::${name}`, `known directives: ${Object.keys(CONTAINERS).map((k) => `:::${k}`).join(', ')}`);
      },
      directiveLeafName(token) {
        fail(token, `uses the unknown directive ::${this.sliceSerialize(token)}`, 'start the line with something other than two colons, or escape them as \\:\\:');
      },
    },
  };

  const directives = directiveHtml({
    '*'(this: CompileContext, d: Directive) {
      if (d.type === 'textDirective') {
        // The site has no inline directives: the text goes back as written, less any attributes.
        this.raw(this.encode(`:${d.name}${d.label ? `[${textOf(d.label)}]` : ''}`));
        return true;
      }
      const spec = d.type === 'containerDirective' ? CONTAINERS[d.name] : undefined;
      if (!spec) return false; // already reported
      const title = spec.heading ? `<p class="box-title"><strong>${spec.heading}</strong></p>` : '';
      const label = d.label ? `<p>${d.label}</p>` : '';
      this.lineEndingIfNeeded();
      this.tag(`<${spec.tag} class="${spec.className}"${spec.role ? ` role="${spec.role}"` : ''}>`);
      this.raw(title + label + joinBlocks(d.content ?? ''));
      this.tag(`</${spec.tag}>`);
      return true;
    },
  });

  return [directives, headings, tasks, checks];
}
