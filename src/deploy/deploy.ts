// `site deploy`: dist/ → the bucket, the build's routing entries → the CloudFront KeyValueStore,
// and one CloudFront invalidation. Order matters to visitors, so that no live URL breaks and no
// edge keeps a stale answer (the cache policy keeps objects at the edge for at least a day):
//   1. new and changed objects go up (assets before the pages that link to them);
//   2. the new and changed routing keys go in: a page becomes routable only once its object exists;
//   3. the keys of pages that are gone come out;
//   4. the deploy waits for the edges to see that (`settle`): the store is eventually consistent,
//      and an edge that still held a removed key would send its reader to an object already gone;
//   5. the stale objects are deleted, superseded hashed assets (assets/, the search index's
//      fragments) apart: an object disappears only once no key points at it;
//   6. the changed and deleted paths are invalidated, after the last key and object went, so that
//      nothing an edge cached meanwhile (a removed page fetched by its file's name during the
//      settle wait) outlives the deploy; the deploy waits for CloudFront to complete it;
//   7. only then the superseded hashed assets go: no edge holds a page that names them any more.
// Each step compares the build with what the bucket and the store hold now, so a deploy that
// failed part-way, run again, does what is left. What it cannot see again, the paths it was to
// invalidate (their objects are up by then), it notes in the store before uploading (JOURNAL_KEY,
// a key no URL can be and the functions never read), and removes at the very end: a run that
// stopped anywhere before, run again, invalidates them again after its own deletions, and waits.
// Another writer changing the store mid-deploy makes the deploy list it again and plan its
// change again (store.ts); publishing is meant to run one deploy at a time (docs/owners.md).
import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { S3Client } from '@aws-sdk/client-s3';
import { deleteKeys, listRemote, putFile, statusMetadata } from './bucket.ts';
import type { Invalidator } from './cdn.ts';
import { invalidationPaths } from './invalidation.ts';
import { readLocalFiles, type LocalFile } from './local-files.ts';
import { carriesDevMarkup } from '../serve/live-reload.ts';
import { sealedWithDrafts, sealProblem } from '../output/seal.ts';
import { deployFilesOf } from '../output/layout.ts';
import { planDeploy, type DeployPlan, type RemoteObject } from './plan.ts';
import { isHashedAsset } from '../url-resolution/cache-control.ts';
import { expectedAnswer, pathsToVerify, verifyAnswers, type Asker } from './verify.ts';
import { previewStoreProblem } from './preview.ts';
import { convergeStore, JOURNAL_KEY, journalValue, planStore, readJournal, type Change, type RoutingStore } from './store.ts';
import { PAGE, pageFile, type Rules } from '../url-resolution/rule.ts';
import { errorStatuses, parseStoreDataFile, peakProblem, rulesIn, STORE_DATA_FILE, type Entry } from '../url-resolution/store-data.ts';

export interface DeployOptions {
  dir: string;
  bucket: string;
  /** Key prefix inside the bucket ('' for the root); normalised to end with '/'. */
  prefix?: string;
  distributionId?: string;
  dryRun?: boolean;
  /** Upload every file even when the bucket already has the same bytes (e.g. to rewrite headers). */
  force?: boolean;
  /** A pull request's preview: a build with its drafts (`site build --drafts`) may go up; the live site's deploy refuses one. */
  draftsAllowed?: boolean;
  /** Delete no stale object this once (see planDeploy). */
  keepStale?: boolean;
  s3: S3Client;
  cdn?: Invalidator;
  /** The distribution's KeyValueStore, brought into step with the routing entries the build wrote beside `dir` (.site/deploy/). */
  store?: RoutingStore;
  concurrency?: number;
  /**
   * Seconds to wait, once keys have come out of the store, before deleting objects: long enough
   * for every edge to see the store's change (DEFAULT_SETTLE_SECONDS from the command; 0 in tests).
   */
  settle?: number;
  /** How the deploy waits `settle` (tests: a clock of their own). */
  wait?: (ms: number) => Promise<void>;
  /** Called as the settle wait begins. */
  onSettle?: (seconds: number, objects: number) => void;
  /** Seconds between asking CloudFront whether the invalidation is complete (default 20). */
  pollSeconds?: number;
  /**
   * Asks the distribution for what readers get, once the last step is done (none: not checked): every
   * changed and removed URL and a sample of the rest, compared with the build; what still answers
   * otherwise after the settle time stops the deploy (DeployError naming each).
   */
  verify?: Asker;
  /** The host `verify` asks (its Host header), for the answers that depend on it (rule.ts's hosts). */
  verifyHost?: string;
  /**
   * An Asker for another host of the distribution: with the content manager on a host of its own
   * (the build's `hosts`), /admin and / are asked there too.
   */
  verifyAt?: (host: string) => Asker;
  /** Called as the check of what readers get begins, with the number of URLs asked. */
  onVerify?: (count: number) => void;
  /** Called as the wait for the invalidation begins. */
  onInvalidationWait?: (id: string) => void;
  /** Called when another writer changed the store under the deploy, before it lists the store again and plans again. */
  onConflict?: (attempt: number) => void;
  /** Called once the plan is known, before anything is changed. */
  onPlan?: (plan: DeployPlan, invalidationPaths: readonly string[], store?: StorePlan) => void;
  onProgress?: (progress: UploadProgress) => void;
}

export interface UploadProgress {
  done: number;
  total: number;
  bytesDone: number;
  bytesTotal: number;
  key: string;
}

/** The store's side of the plan: keys to put (new and changed), keys to delete, and how many stay as they are. */
export interface StorePlan { puts: Entry[]; added: number; changed: number; deletes: string[]; unchanged: number }

export interface DeployResult {
  plan: DeployPlan;
  invalidation: { paths: string[]; id?: string };
  /** With a store: its plan, and the UpdateKeys calls that noted the paths to invalidate, added keys, and removed them. */
  store?: { plan: StorePlan; calls: { journal: number; puts: number; deletes: number } };
  dryRun: boolean;
}

export class DeployError extends Error {
  override name = 'DeployError';
}

/** Files every build of this site has; without them the folder is not a build, and deleting would empty the site. */
const REQUIRED_FILES = ['index.html', '404.html'];

export function normalisePrefix(prefix: string | undefined): string {
  const trimmed = (prefix ?? '').replace(/^\/+|\/+$/g, '');
  return trimmed ? `${trimmed}/` : '';
}

/** The pages `site serve` built (they load its live-reload script, a 404 and a console error in production). */
async function devPages(files: readonly LocalFile[]): Promise<string[]> {
  const found: string[] = [];
  for (const file of files) {
    if (file.key.endsWith('.html') && carriesDevMarkup(await readFile(file.absolutePath, 'utf8'))) found.push(file.key);
  }
  return found;
}

/** The routing entries `site build` wrote beside `dir` (its .site/deploy/ folder), each page's file checked to be in the build. */
async function routingEntries(dir: string, files: readonly LocalFile[]): Promise<Entry[]> {
  const file = path.join(deployFilesOf(dir), STORE_DATA_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new DeployError(`${file} is missing: the routing entries are written by \`site build\` beside ${path.basename(dir)}/ (run it again)`);
  }
  const entries = parseStoreDataFile(text);
  if (!entries) throw new DeployError(`${file} is not the routing entries \`site build\` writes`);
  const keys = new Set(files.map((f) => f.key));
  const missing = entries.filter((e) => e.value === PAGE && !keys.has(pageFile(e.key).slice(1))).map((e) => e.key);
  if (missing.length) throw new DeployError(`${file} names ${missing.length} page(s) whose file is not in ${dir} (${missing.slice(0, 3).join(', ')}): it is from another build; run \`site build\` again`);
  return entries;
}

async function mapLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Each error page's object carries its status (the viewer-response function reads it): the keys
 * of those whose metadata says otherwise (the rules changed, or the object predates them), to go
 * up again whatever their bytes. Reads the error pages of the rules before and after, a HEAD each.
 */
async function wrongStatuses(options: DeployOptions, prefix: string, files: readonly LocalFile[], remote: ReadonlyMap<string, RemoteObject>, statuses: ReadonlyMap<string, number>, before: Rules | undefined): Promise<Set<string>> {
  const local = new Set(files.map((f) => f.key));
  const wrong = new Set<string>();
  for (const key of new Set([...statuses.keys(), ...(before ? errorStatuses(before).keys() : [])])) {
    if (!remote.has(key) || !local.has(key)) continue;
    const stored = await statusMetadata(options.s3, options.bucket, prefix, key);
    if (stored !== (statuses.has(key) ? String(statuses.get(key)) : undefined)) wrong.add(key);
  }
  return wrong;
}

export async function deploy(options: DeployOptions): Promise<DeployResult> {
  const dir = path.resolve(options.dir);
  for (const file of REQUIRED_FILES) {
    try {
      await access(path.join(dir, file));
    } catch {
      throw new DeployError(`${path.join(dir, file)} is missing: ${dir} is not a site build (run \`site build\` first)`);
    }
  }
  const prefix = normalisePrefix(options.prefix);
  const files = await readLocalFiles(dir);
  // Before the bucket is asked anything: only a complete build, exactly as it left the folder, goes up.
  const unsealed = await sealProblem(dir, files);
  if (unsealed) throw new DeployError(unsealed);
  const dev = await devPages(files);
  if (dev.length > 0) {
    const which = dev.length === 1 ? dev[0] : `${dev[0]} and ${dev.length - 1} other page${dev.length === 2 ? '' : 's'}`;
    throw new DeployError(`${which} in ${dir} ${dev.length === 1 ? 'carries' : 'carry'} the development markup of \`site serve\` (its live-reload script): deploy the output of \`site build\` instead`);
  }
  if (!options.draftsAllowed && await sealedWithDrafts(dir)) {
    throw new DeployError(`${dir} was built with its drafts and scheduled articles (site build --drafts): deploy it only as a pull request's preview (site deploy --preview <n>), or run site build without --drafts`);
  }
  const wanted = options.store ? await routingEntries(dir, files) : undefined;
  const current = options.store ? await options.store.list() : undefined;
  const remote = await listRemote(options.s3, options.bucket, prefix);
  const statuses = wanted ? errorStatuses(rulesIn(wanted) ?? { notFound: '/404.html', fallbacks: [] }) : new Map<string, number>();
  const restatus = await wrongStatuses(options, prefix, files, remote, statuses, current ? rulesIn(current) : undefined);
  const plan = planDeploy(files, remote, { force: options.force ?? false, keepStale: options.keepStale ?? false, restatus });
  let storePlan: StorePlan | undefined;
  /** Paths a deploy that stopped part-way was to invalidate, and did not. */
  let pending: string[] = [];
  if (options.store && wanted && current) {
    pending = readJournal(current.get(JOURNAL_KEY));
    // Before any write: the new keys go in before the old come out, so both must fit the store at
    // once (beside other previews' keys, for a preview); and the site's deploy never goes to the
    // previews' store, whose keys it would take out as stale.
    const refused = peakProblem(current, wanted, 'the keys the store holds now') ?? options.store.refuses?.(wanted) ?? previewStoreProblem(current);
    if (refused) throw new DeployError(refused);
    const change = planStore(wanted, current);
    // --keep-stale deletes nothing this once: no object, and no key.
    const deletes = options.keepStale ? [] : change.deletes.filter((key) => key !== JOURNAL_KEY);
    storePlan = { ...change, deletes, unchanged: wanted.length - change.puts.length };
  }
  const changed = [...plan.uploads.map((u) => u.file.key), ...plan.deletes];
  const paths = options.distributionId ? invalidationPaths(changed, undefined, pending) : [];
  options.onPlan?.(plan, paths, storePlan);
  const calls = { journal: 0, puts: 0, deletes: 0 };
  if (options.dryRun) return { plan, invalidation: { paths }, ...(storePlan ? { store: { plan: storePlan, calls } } : {}), dryRun: true };

  const latest = new Map(current ?? []);
  const converge = (change: Change) => convergeStore(options.store!, latest, change, options.onConflict);

  // Noted before anything changes: a run that stops after the uploads and before CloudFront is told leaves the paths here for the next.
  const journal = options.store && paths.length > 0 && paths.join(' ') !== pending.join(' ');
  const note = { key: JOURNAL_KEY, value: journalValue(paths) };
  if (journal) calls.journal = await converge((held) => ({ puts: held.get(JOURNAL_KEY) === note.value ? [] : [note] }));

  const bytesTotal = plan.uploads.reduce((sum, u) => sum + u.file.size, 0);
  let done = 0;
  let bytesDone = 0;
  // HTML waits for everything else: a page must not be live before its assets are.
  const html = plan.uploads.filter((u) => u.file.key.endsWith('.html'));
  const rest = plan.uploads.filter((u) => !u.file.key.endsWith('.html'));
  for (const group of [rest, html]) {
    await mapLimit(group, options.concurrency ?? 8, async ({ file }) => {
      await putFile(options.s3, options.bucket, prefix, file, statuses.get(file.key));
      done += 1;
      bytesDone += file.size;
      options.onProgress?.({ done, total: plan.uploads.length, bytesDone, bytesTotal, key: file.key });
    });
  }

  if (options.store && wanted) calls.puts = await converge((held) => ({ puts: planStore(wanted, held).puts }));

  // Planned from the store as it is now: another writer's keys, seen after a conflict, go too.
  if (options.store && wanted && !options.keepStale) {
    calls.deletes = await converge((held) => ({ deletes: planStore(wanted, held).deletes.filter((key) => key !== JOURNAL_KEY) }));
  }
  const wait = options.wait ?? ((ms) => new Promise<void>((done) => setTimeout(done, ms)));
  // Superseded hashed assets wait for the invalidation: until it completes, an edge may hold a page that names them.
  const assets = plan.deletes.filter(isHashedAsset);
  const others = plan.deletes.filter((key) => !isHashedAsset(key));
  if (others.length > 0) {
    // An edge that has not yet seen a page's key come out (or change) still sends readers to its
    // object: so before a page's object goes, the wait, whether this run or an earlier one that
    // stopped part-way took the key out.
    const settle = options.settle ?? 0;
    if (options.store && settle > 0 && others.some((key) => key.endsWith('.html'))) {
      options.onSettle?.(settle, others.length);
      await wait(settle * 1000);
    }
    await deleteKeys(options.s3, options.bucket, prefix, others);
  }

  let id: string | undefined;
  if (options.distributionId && paths.length > 0) {
    if (!options.cdn) throw new DeployError('a distribution id was given but no CloudFront client');
    id = (await options.cdn.invalidate(options.distributionId, paths)).id;
    options.onInvalidationWait?.(id);
    await options.cdn.completed(options.distributionId, id, { wait, pollSeconds: options.pollSeconds ?? 20 });
  }
  if (assets.length > 0) await deleteKeys(options.s3, options.bucket, prefix, assets);

  if (options.verify && wanted) {
    const entryMap = new Map(wanted.map((e) => [e.key, e.value]));
    const rules = rulesIn(wanted) ?? { notFound: '/404.html', fallbacks: [] };
    const byKey = new Map(files.map((f) => [f.key, f]));
    const pageUrls = (keys: readonly string[]) => keys.filter((k) => k.endsWith('.html')).map((k) => (k === 'index.html' ? '/' : `/${k.slice(0, -'.html'.length)}`));
    const changedUrls = [...pageUrls(changed), ...(storePlan ? [...storePlan.puts.map((e) => e.key), ...storePlan.deletes] : [])].filter((k) => k.startsWith('/'));
    // With the content manager on a host of its own, /admin is asked on the site's host too (it sends it there).
    const admin = rules.hosts && entryMap.has('/admin') ? ['/admin'] : [];
    const asked = pathsToVerify([...new Set([...admin, ...changedUrls])], wanted.map((e) => e.key).filter((k) => k.startsWith('/')));
    const cms = rules.hosts && options.verifyAt ? { host: rules.hosts.cms, asker: options.verifyAt(rules.hosts.cms), paths: ['/admin', '/'] } : undefined;
    options.onVerify?.(asked.length + (cms?.paths.length ?? 0));
    const settleMs = (options.settle ?? 0) * 1000;
    const wrong = await verifyAnswers(asked, (p) => expectedAnswer(p, rules, entryMap, byKey, statuses, options.verifyHost), options.verify, wait, settleMs);
    if (cms) wrong.push(...(await verifyAnswers(cms.paths, (p) => expectedAnswer(p, rules, entryMap, byKey, statuses, cms.host), cms.asker, wait, settleMs)).map((line) => `${cms.host}: ${line}`));
    if (wrong.length > 0) throw new DeployError(`readers do not get what the build holds, ${options.settle ?? 0} s after the deploy's last step:\n  ${wrong.join('\n  ')}`);
  }

  // The journal goes last, once CloudFront has its paths and every deletion they cover is done.
  if (options.store && options.distributionId && (journal || pending.length > 0)) {
    calls.deletes += await converge((held) => ({ deletes: held.has(JOURNAL_KEY) ? [JOURNAL_KEY] : [] }));
  }
  return { plan, invalidation: { paths, ...(id ? { id } : {}) }, ...(storePlan ? { store: { plan: storePlan, calls } } : {}), dryRun: false };
}
