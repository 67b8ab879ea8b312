import type { z } from 'zod';

/** A problem in one content file, phrased for the author who has to fix it. */
export interface ContentError {
  file: string;
  line?: number;
  path: string;
  message: string;
  hint?: string;
}

export class ContentErrors extends Error {
  constructor(readonly errors: ContentError[]) {
    super(`${errors.length} content error${errors.length === 1 ? '' : 's'}:\n${errors.map(formatContentError).join('\n')}`);
    this.name = 'ContentErrors';
  }
}

export function formatContentError(e: ContentError): string {
  const where = e.line ? `${e.file}:${e.line}` : e.file;
  const field = e.path ? ` ${e.path}:` : '';
  return `${where}${field} ${e.message}${e.hint ? ` (hint: ${e.hint})` : ''}`;
}

export function pathToString(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : out ? `${out}.${String(key)}` : String(key)), '');
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `"${value.length > 40 ? `${value.slice(0, 40)}…` : value}"`;
  return `${typeof value} ${String(value)}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = root;
  for (const key of path) v = v != null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined;
  return v;
}

const TYPE_WORDS: Record<string, string> = {
  string: 'text', number: 'a number', boolean: 'true or false', array: 'a list', object: 'a mapping',
};

/** One zod issue in words an author understands, never a raw dump. */
export function issueToWords(issue: z.core.$ZodIssue, input: unknown): { message: string; hint?: string } {
  const value = valueAt(input, issue.path);
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined) return { message: 'is required but missing' };
      return { message: `expected ${TYPE_WORDS[issue.expected] ?? issue.expected}, got ${describe(value)}` };
    case 'too_small':
      if (issue.origin === 'string') return { message: issue.minimum === 1 ? 'must not be empty' : `must be at least ${issue.minimum} characters` };
      if (issue.origin === 'array') return { message: `needs at least ${issue.minimum} item${issue.minimum === 1 ? '' : 's'}` };
      return { message: issue.message };
    case 'too_big':
      if (issue.origin === 'string') return { message: `must be at most ${issue.maximum} characters${typeof value === 'string' ? ` (it has ${value.length})` : ''}` };
      if (issue.origin === 'array') return { message: `allows at most ${issue.maximum} items` };
      return { message: issue.message };
    case 'unrecognized_keys':
      return { message: `unknown field${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`, hint: 'check the spelling against the files and fields listed in docs/authors.md' };
    case 'invalid_value':
      return { message: `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${describe(value)}` };
    default:
      return { message: issue.message };
  }
}
