// The repository's documents name only what exists: every file or folder path in backticks, every
// link to another document and its #section, and every `site` command with its subcommand. A rename
// that forgets a document fails here, not in a reader's hands.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const DOCS = ['README.md', 'lambda/README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The top-level folders and files a path in a document may start with. */
const ROOTS = /^(?:\.\/)?(?:src|lambda|templates|islands|forms|infra|scripts|tests|e2e|scale|content|docs|quality|bin|\.ci)\/|^(?:package\.json|budgets\.json|tsconfig\.json|README\.md)$/;

/** GitHub's anchor for a heading. */
const anchorOf = (heading: string) => heading.trim().toLowerCase().replace(/[`*_]/g, '').replace(/[^\w\- ]/g, '').replace(/ /g, '-');
const anchorsIn = (file: string) => new Set([...readFileSync(file, 'utf8').matchAll(/^#+ (.*)$/gm)].map((m) => anchorOf(m[1]!)));

/** The CLI's commands and the leads subcommands, read from the code that registers them. */
function commands(): Set<string> {
  const found = new Set<string>();
  for (const file of ['src/cli.ts', 'src/leads/register.ts']) {
    for (const m of readFileSync(file, 'utf8').matchAll(/(\w+)\.command\('([\w-]+)'\)/g)) found.add(m[1] === 'leads' ? `leads ${m[2]}` : m[2]!);
  }
  return found;
}

describe('the documents', () => {
  it('exist: a README under 200 lines, and a guide for each reader', () => {
    expect(readFileSync('README.md', 'utf8').split('\n').length).toBeLessThan(200);
    for (const guide of ['authors', 'owners', 'architecture', 'performance', 'product-rules']) expect(DOCS).toContain(`docs/${guide}.md`);
  });

  it('keep the performance guide a guide: at most 300 lines, the history left to git', () => {
    expect(readFileSync('docs/performance.md', 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(300);
  });

  it.each(DOCS)('%s names only paths that exist', (doc) => {
    const text = readFileSync(doc, 'utf8');
    const missing: string[] = [];
    for (const [, code] of text.matchAll(/`([^`\n]+)`/g)) {
      for (const token of code!.split(/\s+/)) {
        const candidate = token.replace(/[),.;:]+$/, '').replace(/^\(/, '').replace(/:\d+$/, '');
        // Placeholders and patterns (<slug>, *.md, {a,b}, …) and URLs are not paths to check.
        if (!ROOTS.test(candidate) || /[<>*{}…]|:\/\//.test(candidate)) continue;
        if (!existsSync(candidate)) missing.push(candidate);
      }
    }
    expect(missing).toEqual([]);
  });

  it("lambda/README.md's module table names every module of lambda/, and only modules that exist", () => {
    const text = readFileSync('lambda/README.md', 'utf8');
    const table = text.slice(text.indexOf('| Module |'), text.indexOf('\n\n', text.indexOf('| Module |')));
    const rows = table.split('\n').filter((line) => /^\| `/.test(line));
    expect(rows.length).toBeGreaterThan(10);
    const named = rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!));
    expect(named.filter((name) => !existsSync(path.join('lambda', name)))).toEqual([]);
    const modules = readdirSync('lambda', { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f)).map((f) => f.split(path.sep).join('/'));
    // A module is named in its own row, or (a folder with a row of its own, like limits/) in its folder's row.
    const inTable = (file: string) => named.includes(file) || rows.some((row) => row.startsWith(`| \`${path.posix.dirname(file)}/\``) && row.includes(`\`${path.posix.basename(file)}\``));
    expect(modules.filter((file) => !inTable(file))).toEqual([]);
  });

  it("docs/architecture.md's layout of the code names every folder of src/, every file at its root, and every module of the pipeline", () => {
    const text = readFileSync('docs/architecture.md', 'utf8');
    const start = text.indexOf('## Layout of the code');
    const block = text.slice(text.indexOf('```', start), text.indexOf('```', text.indexOf('```', start) + 3));
    const named = (word: string) => new RegExp(`(^|[\\s(,:/])${word.replace(/\./g, '\\.')}($|[\\s),;:])`, 'm').test(block);
    const entries = readdirSync('src', { withFileTypes: true });
    const folders = entries.filter((e) => e.isDirectory()).map((e) => `${e.name}/`);
    const rootFiles = entries.filter((e) => e.isFile() && /\.tsx?$/.test(e.name)).map((e) => e.name);
    const pipeline = readdirSync('src/pipeline').filter((f) => /\.tsx?$/.test(f));
    expect(folders).toContain('pipeline/');
    expect([...folders, ...rootFiles, ...pipeline].filter((name) => !named(name))).toEqual([]);
  });

  it.each(DOCS)('%s links only to documents and sections that exist', (doc) => {
    const broken: string[] = [];
    for (const [, target] of readFileSync(doc, 'utf8').matchAll(/\]\(([^)\s]+)\)/g)) {
      // Other schemes (https:, mailto:, the site's own assessment-form:), and the site's URLs (/images/…) in examples.
      if (/^[a-z][a-z-]*:/.test(target!) || target!.startsWith('/')) continue;
      const [file, anchor] = target!.split('#') as [string, string | undefined];
      const resolved = file ? path.join(path.dirname(doc), file) : doc;
      if (!existsSync(resolved)) { broken.push(target!); continue; }
      if (anchor && resolved.endsWith('.md') && !anchorsIn(resolved).has(anchor)) broken.push(target!);
    }
    expect(broken).toEqual([]);
  });

  it.each(DOCS)('%s names only `site` commands that exist', (doc) => {
    const known = commands();
    expect(known.has('build') && known.has('leads erase')).toBe(true);
    const unknown: string[] = [];
    for (const [, command, sub] of readFileSync(doc, 'utf8').matchAll(/`(?:npx )?site ([\w-]+)(?: ([\w-]+))?/g)) {
      if (!known.has(command!)) unknown.push(command!);
      else if (command === 'leads' && sub && !known.has(`leads ${sub}`)) unknown.push(`leads ${sub}`);
    }
    expect(unknown).toEqual([]);
  });
});

/**
 * What cites a document the repository does not hold, one pattern a line: a section sign (a bare
 * mark before a number means a section of some outside paper); the product's working papers by
 * name or path; "the" and the short word for the paper saying what the product must do (a named
 * standard, the HTML one, is fine); the tracker's item by name or number. Each pattern is spelt
 * with a bracket inside its word, so that this file's own text does not match it.
 */
const CITATIONS: readonly RegExp[] = [
  /\u00a7/,
  /\bS[P]EC\b|\bD[E]SIGN\b/,
  /\b(?:the|its|a) s[p]ec(?:ification)?\b|\bs[p]ec's\b|\bproduct s[p]ec(?:ification)?\b|\bdesign (?:n[o]tes|doc(?:ument)?s?)\b/i,
  /\bthe i[s]sue\b|\bi[s]sue's\b|\bi[s]sues? ?#?\d/i,
  /\/work\/s[h]ared\b|\bs[h]ared\/(?:S[P]EC|D[E]SIGN)/i,
];

function citations(text: string): number[] {
  const lines: number[] = [];
  text.split('\n').forEach((line, i) => { if (CITATIONS.some((re) => re.test(line))) lines.push(i + 1); });
  return lines;
}

/** The repository's own text: code, tests, docs and settings; not content/, which is the site's words. */
const SCANNED_DIRS = ['src', 'lambda', 'islands', 'forms', 'templates', 'infra', 'scripts', 'quality', 'docs', 'tests', 'e2e', 'bin', '.ci'];
const SCANNED_FILES = ['README.md', 'budgets.json', 'package.json', 'tsconfig.json', 'vitest.config.ts', '.htmlvalidate.json', '.gitignore'];
const TEXT = /\.(?:ts|tsx|mts|mjs|js|cjs|css|md|json|ya?ml|html|txt|sh)$|^[^.]+$/;

function scannedFiles(): string[] {
  const files = [...SCANNED_FILES];
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, e.name);
      if (e.isDirectory()) { if (e.name !== 'node_modules' && e.name !== 'cdk.out') walk(file); continue; }
      if (TEXT.test(e.name)) files.push(file);
    }
  };
  for (const dir of SCANNED_DIRS) walk(dir);
  return files;
}

describe('the code, the tests and the docs', () => {
  it('tell a citation of an outside document from ordinary words', () => {
    const section = String.fromCharCode(0xa7);
    for (const cited of [`the rule of ${section}5`, `${section}7's payload`, 'S' + 'PEC 4: three seconds', 'see D' + 'ESIGN.md', 'the product s' + 'pecification', 'in the s' + 'pec order', "the s" + "pec's sections",
      'the limits the i' + 'ssue sets', 'as in i' + 'ssue 13', 'i' + 'ssue #12', '/work/s' + 'hared/notes.md']) {
      expect(citations(cited), cited).toEqual([1]);
    }
    for (const plain of ['as the HTML spec says', 'const spec = CONTAINERS[name]', 'for (const issue of result.error.issues)', 'issue.path', 'islands/shared/excerpt.ts', 'a special case', 'the HTML specification']) {
      expect(citations(plain), plain).toEqual([]);
    }
  });

  it('cite no document outside the repository: what a reader needs is said in place or in docs/', () => {
    const files = scannedFiles();
    expect(files).toContain(path.join('tests', 'docs.test.ts'));
    expect(files).toContain(path.join('e2e', 'forms.test.ts'));
    const cites = files.flatMap((file) => citations(readFileSync(file, 'utf8')).map((line) => `${file}:${line}`));
    expect(cites).toEqual([]);
  });
});

/**
 * The word for a period of work, in any form: the repository speaks of the project, with dates and
 * commits. A name in the code is not prose: BuildSession, session.ts, run.session, a name in
 * backticks, SESSION_MEMORY_MAX; nor is AWS's session token. Spelt with a bracket, like CITATIONS.
 */
const WORK_PERIOD = /(?<![\w.$/`-])s[e]ssions?(?![\w`]|\.\w|\s+tokens?\b)/i;

const CODE = /\.(?:ts|tsx|mts|mjs|js|cjs)$|^[^.]+$/;

/** The prose of a file, as [first line, text] pieces: a document's text outside code, a code file's comments and test names. */
function proseOf(file: string, text: string): Array<[number, string]> {
  const lineAt = (index: number) => text.slice(0, index).split('\n').length;
  if (file.endsWith('.md')) {
    return [[1, text.replace(/^```[\s\S]*?^```/gm, (block) => block.replace(/[^\n]/g, ' ')).replace(/`[^`\n]*`/g, (code) => ' '.repeat(code.length))]];
  }
  if (!CODE.test(path.basename(file))) return [[1, text]];
  const pieces: Array<[number, string]> = [];
  for (const m of text.matchAll(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g)) pieces.push([lineAt(m.index!), m[0]]);
  for (const m of text.matchAll(/\b(?:it|test|describe)(?:\.each\([^)]*\))?\(\s*(['"`])((?:(?!\1)[^\\\n]|\\.)*)\1/g)) pieces.push([lineAt(m.index!), m[2]!]);
  return pieces;
}

/** Each place the word for a period of work stands in a file's prose, as file:line. */
function workPeriodWords(file: string, text: string): string[] {
  return proseOf(file, text).flatMap(([first, piece]) => [...piece.matchAll(new RegExp(WORK_PERIOD, 'gi'))]
    .map((m) => `${file}:${first + piece.slice(0, m.index).split('\n').length - 1}`));
}

describe('the words of the repository', () => {
  const word = 's' + 'ession';
  it(`tell the word for a period of work from the code's names`, () => {
    for (const said of [`the ninth ${word}`, `(second ${word})`, `this ${word}'s work`, `three other ${word}s' builds`, `${word[0]!.toUpperCase()}${word.slice(1)} 4 measured`]) {
      expect(workPeriodWords('docs/x.md', said), said).toEqual(['docs/x.md:1']);
      expect(workPeriodWords('src/x.ts', `const a = 1; // ${said}`), said).toEqual(['src/x.ts:1']);
      expect(workPeriodWords('tests/x.test.ts', `it('holds after the ${said}', () => {});`), said).toEqual(['tests/x.test.ts:1']);
    }
    for (const name of ['BuildSession', `${word}.ts`, `run.${word}`, `\`${word}\``, `temporary credentials are version 1 ${word} tokens`, `${word.toUpperCase()}_MEMORY_MAX`]) {
      expect(workPeriodWords('docs/x.md', `serve keeps its ${name}`), name).toEqual([]);
    }
    // Code is not prose: a variable of that name is the code's own word.
    expect(workPeriodWords('src/x.ts', `const { ${word} } = state;\nif (${word}) ${word}.codeChanged = true;`)).toEqual([]);
  });

  it('never use it: docs, comments and tests speak of the project, with dates and commits', () => {
    const found = scannedFiles().flatMap((file) => workPeriodWords(file, readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });
});
