import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { cmsConfig, contentKinds, fields, localCmsConfig } from '../../src/cms/config.ts';
import { writePlaces } from '../../src/cms/write-places.ts';
import type { CmsField } from '../../src/cms/fields.ts';
import { caseStudySchema, postSchema } from '../../src/content/schemas.ts';
import { serviceSchema } from '../../src/content/services-schema.ts';
import { legalPages, pageSchemas } from '../../src/content/pages.ts';
import { readFrontMatter } from '../../src/content/front-matter.ts';
import { readYaml } from '../../src/content/yaml.ts';
import { EXCERPT_MAX } from '../../src/content/field-rules.ts';

const config = cmsConfig({ categories: ['Data Literacy'] });
const folder = (name: string) => config.collections.find((c) => c.name === name)!;
type Shape = Record<string, z.ZodType>;
const shapeOf = (schema: z.ZodType): Shape => (schema as unknown as { shape: Shape }).shape;

/** Each field is required exactly when the schema refuses the field left out. */
function requiredMatches(fields: CmsField[], schema: z.ZodType, at = ''): string[] {
  const shape = shapeOf(schema);
  const wrong: string[] = [];
  expect(fields.map((f) => f.name).filter((n) => n !== 'body').sort(), at || 'fields').toEqual(Object.keys(shape).sort());
  for (const f of fields) {
    if (f.name === 'body') continue;
    const optional = shape[f.name]!.safeParse(undefined).success;
    if ((f.required !== false) === optional) wrong.push(`${at}${f.name}`);
  }
  return wrong;
}

/** A value of the site's own content as the field's widget would hold it: the pattern matches, the choice is offered, the list is of the length allowed. */
function refusals(field: CmsField, value: unknown, at: string): string[] {
  if (value === undefined) return field.required === false ? [] : [`${at}: required`];
  const out: string[] = [];
  if (field.pattern && typeof value === 'string' && !new RegExp(field.pattern[0]).test(value)) out.push(`${at}: ${JSON.stringify(value)} fails ${field.pattern[0]}`);
  if (field.widget === 'select' && !field.options!.includes(String(value))) out.push(`${at}: ${String(value)} not offered`);
  if (field.widget === 'list' && Array.isArray(value)) {
    if (field.min !== undefined && value.length < field.min) out.push(`${at}: fewer than ${field.min}`);
    if (field.max !== undefined && value.length > field.max) out.push(`${at}: more than ${field.max}`);
    value.forEach((v, i) => out.push(...(field.fields ? fieldsRefuse(field.fields, v as Record<string, unknown>, `${at}[${i}]`) : refusals(field.field!, v, `${at}[${i}]`))));
  }
  if (field.widget === 'object') out.push(...fieldsRefuse(field.fields!, value as Record<string, unknown>, at));
  return out;
}
const fieldsRefuse = (fields: CmsField[], data: Record<string, unknown>, at: string) => fields.flatMap((f) => (f.name === 'body' ? [] : refusals(f, data[f.name], `${at}.${f.name}`)));

const read = (file: string) => (file.endsWith('.md') ? readFrontMatter(readFileSync(file, 'utf8'), file).data : readYaml(readFileSync(file, 'utf8'), file).data) as Record<string, unknown>;
const filesIn = (dir: string, ext: string) => readdirSync(dir).filter((n) => n.endsWith(ext)).map((n) => path.join(dir, n));

describe('the CMS config made from the schemas', () => {
  it('asks for exactly the fields each schema has, required where the schema requires them', () => {
    expect(requiredMatches(folder('blog').fields!, postSchema)).toEqual([]);
    expect(requiredMatches(folder('case-studies').fields!, caseStudySchema)).toEqual([]);
    expect(requiredMatches(folder('services').fields!, serviceSchema)).toEqual([]);
    for (const file of folder('pages').files!) {
      const schema = (pageSchemas as Record<string, z.ZodType>)[file.name];
      if (schema) expect(requiredMatches(file.fields, schema, `${file.name}.`)).toEqual([]);
    }
  });

  it("takes the limits, choices and list shapes from the schemas", () => {
    const blog = Object.fromEntries(folder('blog').fields!.map((f) => [f.name, f]));
    expect(blog.faq).toMatchObject({ widget: 'list', min: 3, max: 3 });
    expect(blog.faq!.fields!.map((f) => f.name)).toEqual(['question', 'answer']);
    expect(blog.categories).toMatchObject({ widget: 'categories', options: ['Data Literacy'], required: false });
    expect(blog.date).toMatchObject({ widget: 'date', pattern: ['^\\d{4}-\\d{2}-\\d{2}$', 'expected an ISO date like 2025-09-24'] });
    expect(blog.image!.fields![0]).toMatchObject({ name: 'src', widget: 'image' });
    expect(blog.body).toMatchObject({ widget: 'markdown' });
    const service = Object.fromEntries(folder('services').fields!.map((f) => [f.name, f]));
    expect(service.hero!.fields!.find((f) => f.name === 'action')).toMatchObject({ widget: 'select', options: ['consultation', 'assessment'], default: 'consultation', required: false });
    expect(service.metaDescription!.pattern![1]).toBe('is too long for a meta description: write 120 to 160 characters');
    const pattern = new RegExp(service.metaDescription!.pattern![0]);
    expect(['x'.repeat(119), 'x'.repeat(120), 'x'.repeat(160), 'x'.repeat(161)].map((s) => pattern.test(s))).toEqual([false, true, true, false]);
    // The excerpt's limit is said beside the field and refused in the field's words, as the build refuses it.
    expect(blog.excerpt).toMatchObject({ widget: 'text', hint: `At most ${EXCERPT_MAX} characters.` });
    expect(blog.excerpt!.pattern![1]).toBe(`is too long: an excerpt is at most ${EXCERPT_MAX} characters`);
    const excerpt = new RegExp(blog.excerpt!.pattern![0]);
    expect(['', 'x', 'x'.repeat(EXCERPT_MAX), ` ${'x'.repeat(EXCERPT_MAX)}\n`, 'x'.repeat(EXCERPT_MAX + 1), 'x'.repeat(2839)].map((s) => excerpt.test(s))).toEqual([false, true, true, true, false, false]);
    expect(service.order).toMatchObject({ widget: 'number', value_type: 'int' });
    // Rules across fields, which no widget carries, are named for the save's check.
    expect(config.saveRules.blog).toContain('entry: a rule across fields');
  });

  it("accepts every file of the site's own content as it stands", () => {
    const out: string[] = [];
    for (const file of filesIn('content/blog', '.md')) out.push(...fieldsRefuse(folder('blog').fields!, read(file), file));
    for (const file of filesIn('content/case-studies', '.yaml')) out.push(...fieldsRefuse(folder('case-studies').fields!, read(file), file));
    for (const file of filesIn('content/services', '.yaml')) out.push(...fieldsRefuse(folder('services').fields!, read(file), file));
    for (const f of [...folder('pages').files!, ...folder('legal').files!, ...folder('site').files!]) out.push(...fieldsRefuse(f.fields, read(f.file), f.file));
    expect(out).toEqual([]);
  });
});

describe('where a save goes', () => {
  it("through GitHub a save is a draft (a pull request) with its preview named by the 'site/preview' status; site serve writes straight into content/", () => {
    const production = cmsConfig({ categories: [], repo: 'dundee-data/site', authBaseUrl: 'https://auth.example.com' });
    expect(production.publish_mode).toBe('editorial_workflow');
    expect(production.backend).toMatchObject({ name: 'github', repo: 'dundee-data/site', branch: 'main', preview_context: 'site/preview' });
    // An author at their own checkout commits themselves: no drafts, and nothing of GitHub's.
    const local = localCmsConfig({ categories: [] }, '/admin/api');
    expect(local.publish_mode).toBe('simple');
    expect(local.backend).toEqual({ name: 'proxy', proxy_url: '/admin/api' });
    expect(local.collections).toEqual(cmsConfig({ categories: [] }).collections);
  });
});

describe('the CMS config follows the content registries', () => {
  it('lists a new folder of YAML entries in /admin with nothing else to edit', async () => {
    const { z } = await import('zod');
    const eventSchema = z.object({ title: z.string().min(1), date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), summary: z.string().optional() });
    const withEvents = cmsConfig({ categories: [] }, { ...contentKinds, folders: { ...contentKinds.folders, events: eventSchema } });
    const events = withEvents.collections.find((c) => c.name === 'events');
    expect(events).toMatchObject({ label: 'Events', folder: 'content/events', extension: 'yaml', format: 'yaml', create: true, identifier_field: 'title' });
    expect(events!.fields!.map((f) => f.name)).toEqual(['title', 'date', 'summary']);
    // ...and the local API writes its entries there.
    expect(writePlaces(withEvents).folders).toContainEqual({ folder: 'content/events', extension: 'yaml' });
  });

  it('lists every page of the registries once: the YAML pages and the legal pages', () => {
    expect(folder('pages').files!.map((f) => f.file).sort()).toEqual(Object.keys(pageSchemas).map((n) => `content/pages/${n}.yaml`).sort());
    expect(folder('legal').files!.map((f) => f.file).sort()).toEqual(legalPages.map((n) => `content/pages/${n}.md`).sort());
  });

  it("keeps each collection's files in the one format Decap reads the whole collection in", () => {
    // Decap reads every entry of a collection in its `format`: a markdown page in a YAML collection cannot be opened.
    const extensions: Record<string, string> = { yaml: '.yaml', frontmatter: '.md' };
    const wrong = config.collections.flatMap((c) => [...(c.files ?? []).map((f) => f.file), ...(c.folder ? [`${c.folder}/x.${c.extension}`] : [])]
      .filter((file) => !c.format || !extensions[c.format] || !file.endsWith(extensions[c.format]!))
      .map((file) => `${c.name} (${c.format}): ${file}`));
    expect(wrong).toEqual([]);
  });

  it('refuses an override that names a field the schema no longer has', () => {
    expect(() => fields(postSchema, { overrides: { date: { widget: 'datetime' }, publishedOn: { widget: 'datetime' } } })).toThrow(/publishedOn, which the schema no longer has/);
    expect(() => fields(postSchema, { overrides: { 'faq.questionText': { widget: 'text' } } })).toThrow(/faq\.questionText/);
    // The site's own overrides all name fields the schemas have.
    expect(() => cmsConfig({ categories: [] })).not.toThrow();
  });
});
