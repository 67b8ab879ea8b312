// Articles for `npm run bench`: written from a seed (the same N gives the same files), or converted
// from a folder of markdown with front matter such as the Eleventy benchmark kit writes.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse, stringify } from 'yaml';

/** A small, fast PRNG (mulberry32): deterministic, which Math.random is not. */
function random(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)), pick: (list) => list[Math.floor(next() * list.length)] };
}

const TOPICS = ['data governance', 'dashboards', 'data quality', 'reporting', 'data strategy', 'data literacy', 'customer data', 'performance measures', 'data integration', 'spreadsheets', 'AI readiness', 'data protection', 'forecasting', 'board reporting', 'survey data', 'operational data'];
const TITLES = ['A Practical Guide to {T}', 'What We Learned About {T}', 'Five Questions to Ask About {T}', 'Getting Started With {T}', 'Why {T} Matters to Small Organisations', 'The Hidden Cost of Poor {T}', 'Making {T} Work for Your Team', '{T} Without the Jargon'];
const CATEGORIES = ['Data Strategy', 'Data Governance', 'Data Literacy', 'Data Culture', 'AI Readiness', 'Dashboards', 'Case Notes'];
const HEADINGS = ['Where most organisations start', 'What good looks like', 'The first three steps', 'Common pitfalls', 'Who should own it', 'Measuring progress', 'A worked example', 'When to ask for help', 'What it costs', 'Keeping it going'];
const SUBJECTS = ['The finance team', 'A charity we worked with', 'Your board', 'The operations manager', 'A growing retailer', 'Every service lead', 'The person who built the spreadsheet'];
const VERBS = ['needs', 'relies on', 'can improve', 'often overlooks', 'should agree', 'quickly benefits from', 'rarely questions'];
const OBJECTS = ['a shared definition of each key measure', 'one trusted source for customer records', 'a short list of headline indicators', 'clear ownership of every important dataset', 'a regular check of data quality', 'reports that answer a real decision', 'a simple register of personal data'];
const CLAUSES = ['before any new system is bought', 'so that meetings stop stalling over whose figures are right', 'which saves hours every month', 'even when the budget is tight', 'long before AI enters the conversation', 'and the habit sticks once people see the results'];
const IMAGES = ['/images/blog-what-is-data.svg', '/images/blog-how-to-gather-meaningful-data.svg', '/images/blog-your-data-is-fine.svg', '/images/blog-how-to-avoid-the-four-data-pitfalls.svg'];
const CODE = [
  ['sql', 'SELECT region, COUNT(*) AS customers\nFROM customers\nWHERE active = TRUE\nGROUP BY region\nORDER BY customers DESC;'],
  ['python', 'import pandas as pd\n\norders = pd.read_csv("orders.csv", parse_dates=["date"])\nmonthly = orders.groupby(orders["date"].dt.to_period("M"))["value"].sum()\nprint(monthly.tail(6))'],
];
const QUOTES = ['If two reports disagree, nobody trusts either of them.', 'Start with the decision, then find the data that informs it.', 'Good data is boring: it is simply there when you need it.'];

const slugify = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
const words = (s) => s.split(/\s+/).filter((w) => /[A-Za-z0-9]/.test(w)).length;
const cap = (s) => s[0].toUpperCase() + s.slice(1);

function identity(i, seed) {
  const r = random(seed + i * 2);
  const topic = r.pick(TOPICS);
  const title = r.pick(TITLES).replace('{T}', topic.replace(/\b\w/g, (c) => c.toUpperCase()).replace('Ai ', 'AI '));
  const date = new Date(Date.UTC(2016, 0, 1) + r.int(0, 3650) * 86_400_000).toISOString().slice(0, 10);
  return { slug: `${slugify(title)}-${String(i + 1).padStart(5, '0')}`, title, topic, date };
}

function sentence(r, topic, others) {
  const roll = r.next();
  const object = roll >= 0.12 && roll < 0.22 ? `**${r.pick(OBJECTS)}**` : r.pick(OBJECTS);
  const s = `${r.pick(SUBJECTS)} ${r.pick(VERBS)} ${object}, ${r.pick(CLAUSES)}.`;
  if (roll < 0.12 && others.length) { const o = r.pick(others); return `${s} We cover this in [${o.title}](/blog/${o.slug}).`; }
  if (roll >= 0.22 && roll < 0.3) return `With ${topic}, *small and steady* beats ambitious and abandoned. ${s}`;
  return s;
}

const paragraph = (r, topic, others, n = r.int(3, 5)) => Array.from({ length: n }, () => sentence(r, topic, others)).join(' ');

function body(r, topic, others) {
  const target = r.int(600, 1150);
  const blocks = [paragraph(r, topic, others)];
  let count = words(blocks[0]);
  const push = (b) => { blocks.push(b); count += words(b); };
  for (let section = 0; count < target; section++) {
    push(`## ${HEADINGS[(section + r.int(0, 3)) % HEADINGS.length]}`);
    push(paragraph(r, topic, others));
    const roll = r.next();
    if (roll < 0.35) push(Array.from({ length: r.int(3, 5) }, () => `- ${cap(r.pick(OBJECTS))}.`).join('\n'));
    else if (roll < 0.55) push(Array.from({ length: r.int(3, 4) }, (_, k) => `${k + 1}. **${cap(r.pick(VERBS))}** ${r.pick(OBJECTS)}.`).join('\n'));
    else if (roll < 0.65) push(`> ${r.pick(QUOTES)}`);
    else if (roll < 0.72) { const [lang, code] = r.pick(CODE); push(`\`\`\`${lang}\n${code}\n\`\`\``); }
    else if (roll < 0.82) push(`:::fix\n${paragraph(r, topic, others, 2)}\n:::`);
    if (r.next() < 0.5) { push(`### ${cap(topic)} in practice`); push(paragraph(r, topic, others, r.int(2, 4))); }
  }
  push('## In short');
  push(paragraph(r, topic, others, 2));
  return { markdown: `${blocks.join('\n\n')}\n`, words: count };
}

function faq(title) {
  return [
    { question: `Who is "${title}" for?`, answer: 'Leaders and managers of small and medium organisations who want their data to support better decisions.' },
    { question: 'How long does this take to put in place?', answer: 'A first useful step usually takes weeks rather than months, if it starts from one clear decision.' },
    { question: 'Do we need new software?', answer: 'Rarely at first. Agreeing definitions and ownership comes before any purchase.' },
  ];
}

const articleFile = (front, markdown) => `---\n${stringify(front)}---\n\n${markdown}`;

/** Writes `count` articles of 600–1,200 words, linked to each other, into `dir`; the same count and seed give the same files. */
export async function writeArticles(dir, count, seed = 20250924) {
  const ids = Array.from({ length: count }, (_, i) => identity(i, seed));
  for (let i = 0; i < count; i++) {
    const r = random(seed + i * 2 + 1);
    const { slug, title, topic, date } = ids[i];
    const others = Array.from({ length: Math.min(8, count - 1) }, () => ids[(i + r.int(1, count - 1)) % count]);
    const { markdown, words: n } = body(r, topic, others);
    // Two sentences, or the first alone where two would pass the build's limit (EXCERPT_MAX, 300
    // characters, src/content/field-rules.ts); both are drawn either way, so the files stay the same.
    const lead = [sentence(r, topic, []), sentence(r, topic, [])];
    const front = {
      title, excerpt: lead.join(' ').length <= 300 ? lead.join(' ') : lead[0], date, readingTime: `${Math.max(1, Math.round(n / 200))} min read`,
      categories: [r.pick(CATEGORIES), r.pick(CATEGORIES)].filter((c, k, all) => all.indexOf(c) === k),
      ...(r.next() < 0.6 ? { image: { src: r.pick(IMAGES), alt: `Illustration for ${title}` } } : {}),
      faq: faq(title),
    };
    await writeFile(path.join(dir, `${slug}.md`), articleFile(front, markdown));
  }
  return count;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** '24 September 2025' (or an ISO date) → '2025-09-24'. */
function isoDate(value, file) {
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  const text = String(value);
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
  const m = /^(\d{1,2}) ([A-Za-z]+) (\d{4})$/.exec(text.trim());
  const month = m ? MONTHS.indexOf(m[2].toLowerCase()) : -1;
  if (!m || month < 0) throw new Error(`${file}: date '${text}' is neither ISO nor like '24 September 2025'`);
  return `${m[3]}-${String(month + 1).padStart(2, '0')}-${m[1].padStart(2, '0')}`;
}

/**
 * Converts every *.md in `from` (front matter: title, slug, date, excerpt, readingTime, categories,
 * imageUrl) into an article of ours in `dir`, the body untouched. An external imageUrl becomes one of
 * the site's own images, so that the page still shows one; the three FAQ items our articles need are
 * added.
 */
export async function convertArticles(from, dir) {
  const names = (await readdir(from)).filter((n) => n.endsWith('.md') && !n.startsWith('.')).sort();
  if (!names.length) throw new Error(`${from} holds no .md files`);
  for (const [i, name] of names.entries()) {
    const source = await readFile(path.join(from, name), 'utf8');
    const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(source);
    if (!m) throw new Error(`${name}: no front matter`);
    const data = parse(m[1]) ?? {};
    const slug = slugify(String(data.slug ?? path.basename(name, '.md')));
    const front = {
      title: String(data.title), excerpt: String(data.excerpt ?? data.title), date: isoDate(data.date, name),
      ...(data.readingTime ? { readingTime: String(data.readingTime) } : {}),
      ...(Array.isArray(data.categories) ? { categories: data.categories.map(String) } : {}),
      ...(data.imageUrl ? { image: { src: IMAGES[i % IMAGES.length], alt: `Illustration for ${data.title}` } } : {}),
      faq: faq(String(data.title)),
    };
    await writeFile(path.join(dir, `${slug}.md`), articleFile(front, source.slice(m[0].length)));
  }
  return names.length;
}
