// Decap CMS's own file formats, which the client wraps (keep-style.ts): its package types none of its modules but its entry.
interface DecapFormatter {
  fromFile(content: string): object;
  toFile(data: object, sortedKeys?: string[], comments?: Record<string, string>): string;
}
declare module 'decap-cms-core/dist/esm/formats/yaml.js' {
  const yamlFormatter: DecapFormatter;
  export default yamlFormatter;
}
declare module 'decap-cms-core/dist/esm/formats/frontmatter.js' {
  export const FrontmatterInfer: DecapFormatter;
}
