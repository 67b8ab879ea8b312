// The page a form post without JavaScript gets back when it could not be sent: what went
// wrong, field by field, and a link back to the form. Every value is escaped.
import { escapeMarkup as escapeHtml } from '../src/render/escape.ts';
import { ANSWER_FIELDS, questionFor, type AnswerField } from '../forms/assessment-questions.ts';
import type { FormName } from '../forms/names.ts';
import { FORM_TYPE_FIELD, HUMAN_CHECK, TEXT_FIELDS } from '../forms/fields.ts';

export interface Problem {
  label: string;
  message: string;
}

export interface ProblemPage {
  heading: string;
  intro: string;
  problems?: readonly Problem[];
  backHref: string;
}

const LABELS: Record<string, string> = {
  [HUMAN_CHECK.name]: HUMAN_CHECK.label,
  [FORM_TYPE_FIELD]: 'Form type',
  assessmentData: 'Assessment answers',
  form: 'Form',
};

function isAnswerField(key: string): key is AnswerField {
  return (ANSWER_FIELDS as readonly string[]).includes(key);
}

export function fieldLabel(form: FormName, key: string): string {
  const field = TEXT_FIELDS[form].find((f) => f.name === key);
  if (field) return field.label;
  if (isAnswerField(key)) return questionFor(key).question;
  return LABELS[key] ?? key;
}

export function problemsFrom(form: FormName, errors: Readonly<Record<string, string>>): Problem[] {
  return Object.entries(errors).map(([key, message]) => ({ label: fieldLabel(form, key), message }));
}

const STYLE =
  'body{font-family:system-ui,sans-serif;line-height:1.5;margin:0;padding:2rem 1rem;color:#1a1a1a}' +
  'main{max-width:40rem;margin:0 auto}h1{font-size:1.75rem}' +
  'ul{border-left:4px solid #b3261e;padding:.5rem 1rem .5rem 2rem}a{color:#0b57d0}';

export function renderProblemPage(page: ProblemPage): string {
  const list = page.problems?.length
    ? `<ul>${page.problems
        .map((p) => `<li><strong>${escapeHtml(p.label)}:</strong> ${escapeHtml(p.message)}</li>`)
        .join('')}</ul>`
    : '';
  return [
    '<!doctype html>',
    '<html lang="en-GB">',
    '<head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(page.heading)}</title>`,
    `<style>${STYLE}</style></head>`,
    '<body><main>',
    `<h1>${escapeHtml(page.heading)}</h1>`,
    `<p>${escapeHtml(page.intro)}</p>`,
    list,
    `<p><a href="${escapeHtml(page.backHref)}">Go back to the form</a></p>`,
    '</main></body></html>',
  ].join('\n');
}
