import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { z } from 'zod';
import { cmsConfig, type CmsConfig } from '../../src/cms/config.ts';
import { caseStudySchema, postSchema, siteSchema } from '../../src/content/schemas.ts';
import { serviceSchema } from '../../src/content/services-schema.ts';
import { pageSchemas } from '../../src/content/pages.ts';
import { readFrontMatter } from '../../src/content/front-matter.ts';
import { readYaml } from '../../src/content/yaml.ts';
import { pathToString } from '../../src/content/errors.ts';
import { record } from './widget-values.ts';

const config = cmsConfig({ categories: ['Data Literacy', 'Data Culture'] });
const collection = (name: string) => config.collections.find((c) => c.name === name)!;

/** A rule the form cannot carry is allowed to refuse an entry, and only such a rule: its path, with list indices as []. */
function onlySaveRules(config: CmsConfig, key: string, issues: z.core.$ZodIssue[]): string[] {
  const rules = (config.saveRules[key] ?? []).map((r) => r.slice(0, r.indexOf(': ')));
  return issues.map((i) => pathToString(i.path).replace(/\[\d+\]/g, '[]')).filter((p) => !rules.some((r) => r === 'entry' || r === p || p.startsWith(`${r}[`) || p.startsWith(`${r}.`)));
}

/** The file Decap writes for an entry (front matter and body, or YAML), read back as the build reads it. */
/**
 * The entry as YAML text. JSON is YAML, and both readers take it back exactly; the yaml package's
 * own stringify does not always (a long double-quoted value ending in spaces and line breaks came
 * back with a stray backslash), which would fail the property for the writer's fault, not the form's.
 */
const asYaml = (data: Record<string, unknown>) => `${JSON.stringify(data)}\n`;

function asBuildReadsIt(data: Record<string, unknown>, markdown: boolean): unknown {
  if (!markdown) {
    const read = readYaml(asYaml(data), 'entry.yaml');
    expect(read.errors).toEqual([]);
    return read.data;
  }
  const { body, ...front } = data;
  const read = readFrontMatter(`---\n${asYaml(front)}---\n${String(body ?? '')}\n`, 'entry.md');
  expect(read.errors).toEqual([]);
  return read.data;
}

const cases: Array<[string, string, z.ZodType, boolean]> = [
  ['an article', 'blog', postSchema, true],
  ['a case study', 'case-studies', caseStudySchema, false],
];

describe('every entry the CMS forms can produce is one the build accepts', () => {
  for (const [what, key, schema, markdown] of cases) {
    it(what, () => {
      fc.assert(fc.property(record(collection(key).fields!), (entry) => {
        const result = schema.safeParse(asBuildReadsIt(entry, markdown));
        expect(result.success ? [] : onlySaveRules(config, key, result.error.issues)).toEqual([]);
      }), { numRuns: 150 });
    });
  }

  it('a service', () => {
    fc.assert(fc.property(record(collection('services').fields!), (entry) => {
      const result = serviceSchema.safeParse(asBuildReadsIt(entry, false));
      expect(result.success ? [] : onlySaveRules(config, 'services', result.error.issues)).toEqual([]);
    }), { numRuns: 60 });
  });

  it("the site's settings and every page file", () => {
    const files = [...collection('pages').files!, ...collection('site').files!];
    for (const file of files) {
      const schema = file.name === 'site' ? siteSchema : (pageSchemas as Record<string, z.ZodType>)[file.name];
      if (!schema) throw new Error(`no schema for ${file.file}`);
      fc.assert(fc.property(record(file.fields), (entry) => {
        const result = schema.safeParse(asBuildReadsIt(entry, false));
        expect(result.success ? [] : onlySaveRules(config, file.name === 'site' ? 'site' : `pages/${file.name}`, result.error.issues), file.file).toEqual([]);
      }), { numRuns: 25 });
    }
  });
});
