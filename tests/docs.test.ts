// The repository's documents name only what exists: every file or folder path in backticks, every
// link to another document and its #section, and every `site` command with its subcommand. A rename
// that forgets a document fails here, not in a reader's hands.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const DOCS = ['README.md', 'lambda/README.md', ...readdirSync('docs').filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** The top-level folders and files a path in a document may start with. */
const ROOTS = /^(?:\.\/)?(?:src|lambda|templates|islands|forms|infra|scripts|tests|e2e|content|docs|quality|bin|\.ci)\/|^(?:package\.json|budgets\.json|tsconfig\.json|README\.md)$/;

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

describe('the code', () => {
  it('cites no document outside the repository: what a comment leans on is in docs/', () => {
    const cites: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, e.name);
        if (e.isDirectory()) { if (e.name !== 'node_modules' && e.name !== 'cdk.out') walk(file); continue; }
        if (!/\.(ts|tsx|mjs|js|css|md)$/.test(e.name)) continue;
        readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
          if (/\bSPEC\b(?! ?=)|SPEC §|DESIGN\.md|DESIGN '|\.\.\/shared\//.test(line)) cites.push(`${file}:${i + 1}`);
        });
      }
    };
    for (const dir of ['src', 'lambda', 'islands', 'forms', 'templates', 'infra', 'scripts', 'quality', 'docs']) walk(dir);
    expect(cites).toEqual([]);
  });
});
