// The module src/bundle/page-templates.ts makes from the registry of kinds of page (kinds.ts).
declare module 'site:page-templates' {
  export const templatesByKind: import('./template-map.ts').TemplatesByKind;
}
