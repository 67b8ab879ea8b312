// The site's templates, by the name routes give them, gathered from each kind's templates module
// (the bundles import the modules the registry names: src/bundle/page-templates.ts).

/** What the bundled modules hand over: each kind's templates module, with the path it was read from. */
export type TemplatesByKind = Record<string, { file: string; module: { templates?: Record<string, unknown> } }>;

/**
 * One map of every template. A module without a `templates` export, or a template name two kinds
 * both give, is an error naming the kinds: a route must find exactly one template by its name.
 */
export function templatesOf<T = unknown>(byKind: TemplatesByKind): Record<string, T> {
  const out: Record<string, T> = {};
  const owner: Record<string, string> = {};
  for (const [kind, { file, module }] of Object.entries(byKind)) {
    if (!module.templates || typeof module.templates !== 'object') throw new Error(`the page kind "${kind}": ${file} exports no \`templates\` (each template by the name its routes give)`);
    for (const [name, template] of Object.entries(module.templates)) {
      if (name in out) throw new Error(`the template "${name}" is given by two kinds of page, "${owner[name]}" and "${kind}": name it once`);
      out[name] = template as T;
      owner[name] = kind;
    }
  }
  return out;
}
