// The schemas' rules across fields (an expiry after publication, items in their fixed order), which
// no form field can carry, checked before Decap saves through GitHub: with no server of the site's
// in the way, this is the check before the commit. The build's own schemas decide, and a broken rule
// is said in the build's own sentence (its file, field and reason; the line is the build's to give).
// A field's own rule is the form's to show as the author types; what only the whole site can show
// (an image missing from content/images) is the publishing job's build's.
import { formatContentError, issueToWords, pathToString } from '../../content/errors.ts';
import { entrySchema } from '../config.ts';

/** The rules the entry's data breaks, each in the build's words about `file`; none when they hold. */
export function brokenRules(collection: string, file: string | undefined, data: Record<string, unknown>, path: string): string[] {
  const found = entrySchema(collection, file);
  if (!found) return [];
  const { body: _, ...front } = data;
  const checked = found.body ? front : data;
  const result = found.schema.safeParse(checked);
  if (result.success) return [];
  return result.error.issues
    .filter((issue) => issue.code === 'custom')
    .map((issue) => formatContentError({ file: path, path: pathToString(issue.path), ...issueToWords(issue, checked) }));
}
