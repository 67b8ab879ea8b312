// `node scripts/bench-markdown-floor.mjs DIR [ROUNDS]`: the build's markdown processor, per article,
// against its floor, on one thread: satteri's parse alone (the native parser's tree, nothing done to
// it; then with every node of its lazy tree read), then the whole of what a build's worker does with an article (front matter read, the tree
// parsed, the site's steps, remark-html). DIR is a project a build has run in (`npm run bench -- N
// --keep`): the processor is the one it bundled there (.site/cache/code-*/markdown.mjs), and the
// articles are its content/blog/. Each round parses every article; the first warms the code up and
// is not counted; the figures are the median round's, in ms an article.
import { createRequire } from 'node:module';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

const [dir, roundsArg] = process.argv.slice(2);
if (!dir) { console.error('usage: node scripts/bench-markdown-floor.mjs DIR [ROUNDS]'); process.exit(2); }
const rounds = Number(roundsArg ?? 5);
const cache = path.join(dir, '.site', 'cache');
const code = readdirSync(cache).filter((n) => n.startsWith('code-')).map((n) => path.join(cache, n)).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
if (!code) { console.error(`no bundled code in ${cache}: run a build there first`); process.exit(2); }
const { parseMarkdownFile } = await import(pathToFileURL(path.join(code, 'markdown.mjs')).href);
const satteri = createRequire(path.join(dir, 'package.json'))('satteri');

const blog = path.join(dir, 'content', 'blog');
const articles = readdirSync(blog).filter((n) => n.endsWith('.md')).map((n) => ({ rel: `content/blog/${n}`, source: readFileSync(path.join(blog, n), 'utf8') }));
// The body alone for the parser: what follows the front matter's closing line.
const bodies = articles.map(({ source }) => source.replace(/^---\n[\s\S]*?\n---\n/, ''));
const SATTERI_OPTIONS = { features: { gfm: true, directive: true, frontmatter: false } };

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
async function time(label, each) {
  const perRound = [];
  for (let r = 0; r <= rounds; r++) {
    const start = performance.now();
    for (let i = 0; i < articles.length; i++) await each(i);
    if (r > 0) perRound.push((performance.now() - start) / articles.length);
  }
  return { label, ms: median(perRound), min: Math.min(...perRound), max: Math.max(...perRound) };
}

// satteri hands back a lazy tree, its nodes made as they are first read: the floor reads every one.
const walk = (node) => { const children = node.children; if (children) for (let i = 0; i < children.length; i++) walk(children[i]); };
const lazy = await time("satteri's parse alone", (i) => { satteri.markdownToMdast(bodies[i], SATTERI_OPTIONS); });
const floor = await time("satteri's parse, every node read", (i) => { walk(satteri.markdownToMdast(bodies[i], SATTERI_OPTIONS)); });
const whole = await time("the build's markdown processor", (i) => parseMarkdownFile({ source: articles[i].source, rel: articles[i].rel }));
console.log(`${articles.length} articles of ${dir}, median of ${rounds} rounds (ms an article, min–max):`);
for (const r of [lazy, floor, whole]) console.log(`  ${r.label.padEnd(34)} ${r.ms.toFixed(3)} (${r.min.toFixed(3)}–${r.max.toFixed(3)})`);
console.log(`  the processor over its floor: ${(whole.ms / floor.ms).toFixed(2)}×`);
