// An entry saved through GitHub written as an edit of its file, as `site serve` writes a save
// (yaml-edits.ts): Decap prints the whole file afresh (its own quoting, folding at 80 columns, no
// comments), so a one-word change would rewrite every long line. The text the file had when the
// entry was opened travels with the entry's data from the save's start (preSave) to Decap's
// printing of it, where the printed file is laid onto that text; a backup of unsaved work, which
// never passes preSave, is printed as Decap prints it.
import type CMS from 'decap-cms-app';
import yamlFormat from 'decap-cms-core/dist/esm/formats/yaml.js';
import { FrontmatterInfer } from 'decap-cms-core/dist/esm/formats/frontmatter.js';
import { keepFrontMatterStyle, keepYamlStyle } from '../yaml-edits.ts';

/** The data key the file's text travels under: no field of the site's schemas can have it. */
const ORIGINAL = '\u0000site:original';

interface Data { set(key: string, value: unknown): Data }

/** The entry's data with the text its file had (`raw`: empty for a new entry, which has none to keep). */
export function withOriginal<T extends Data>(data: T, raw: unknown): T {
  return typeof raw === 'string' && raw ? (data.set(ORIGINAL, raw) as T) : data;
}

function keeping(format: DecapFormatter, keep: (existing: string, saved: string) => string): DecapFormatter {
  return {
    fromFile: (content) => format.fromFile(content),
    toFile(data, sortedKeys, comments) {
      const { [ORIGINAL]: original, ...rest } = data as Record<string, unknown>;
      const saved = format.toFile(rest, sortedKeys, comments);
      return typeof original === 'string' ? keep(original, saved.endsWith('\n') ? saved : `${saved}\n`) : saved;
    },
  };
}

/** Decap's 'yaml' and 'frontmatter' formats, each keeping the style of the file it saves over. */
export function registerStyleKeeping(cms: typeof CMS): void {
  cms.registerCustomFormat('yaml', 'yml', keeping(yamlFormat, keepYamlStyle) as never);
  cms.registerCustomFormat('frontmatter', 'md', keeping(FrontmatterInfer, keepFrontMatterStyle) as never);
}
