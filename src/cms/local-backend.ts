// Decap CMS's local backend, the protocol its `decap-server` speaks (POST { action, params } as JSON),
// answered by `site serve` itself: it reads and writes content/ as an author's editor would, and
// refuses a save the build would refuse, with the build's own message, leaving the file as it was.
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, readdir, realpath, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ContentErrors, formatContentError, type ContentError } from '../content/errors.ts';
import { cmsConfig } from './config.ts';
import { keepFrontMatterStyle, keepYamlStyle } from './yaml-edits.ts';
import { entryRefusal, mediaRefusal, svgRefusal, writePlaces, type WritePlaces } from './write-places.ts';
import { tempFileFor } from '../temp-file.ts';

/** The largest request body taken (an uploaded image travels in it, base64). */
export const CMS_BODY_LIMIT = 12 * 1024 * 1024;

export interface CmsAnswer { status: number; json: unknown }

interface DataFile { path: string; raw: string; newPath?: string }
interface Asset { path: string; content: string; encoding: string }

/** Loads a content folder as the build does; throws ContentErrors. */
export type ValidateContent = (contentDir: string) => Promise<unknown>;

const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

const WRITES = new Set(['persistEntry', 'persistMedia', 'deleteFile', 'deleteFiles']);

export interface CmsBackendOptions {
  /** Where entries and images may be written (by default the site's CMS config's collections and media folder). */
  places?: WritePlaces;
  /** Whether saves are taken at all (`site serve` turns them off when it listens beyond this machine). */
  writes?: boolean;
}

export class CmsLocalBackend {
  private readonly contentDir: string;
  private readonly places: WritePlaces;
  private readonly writes: boolean;
  /** One save at a time: each is validated against the content as the save before left it. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly root: string, private readonly validate: ValidateContent, options: CmsBackendOptions = {}) {
    this.contentDir = path.join(root, 'content');
    this.places = options.places ?? writePlaces(cmsConfig({ categories: [] }));
    this.writes = options.writes ?? true;
  }

  /** A path the CMS names, inside content/ or refused: no '..', no absolute path, no dotfile. */
  private inside(rel: unknown): string {
    if (typeof rel !== 'string' || !rel || path.isAbsolute(rel) || rel.includes('\0')) throw new Refused(`not a content path: ${String(rel)}`);
    const full = path.resolve(this.root, rel);
    const within = path.relative(this.contentDir, full);
    if (within.startsWith('..') || path.isAbsolute(within) || within.split(path.sep).some((part) => part.startsWith('.'))) throw new Refused(`${rel} is outside content/`);
    return full;
  }

  /**
   * The path as the file system resolves it (its links followed) still inside content/: the deepest
   * part that exists, resolved, and the rest named under it. Checked before each read and write.
   */
  private async real(full: string): Promise<string> {
    const top = await realpath(this.contentDir);
    let at = full;
    const rest: string[] = [];
    for (;;) {
      const resolved = await realpath(at).catch((error: NodeJS.ErrnoException) => { if (error.code === 'ENOENT') return undefined; throw error; });
      if (resolved !== undefined) {
        const real = path.join(resolved, ...rest);
        const within = path.relative(top, real);
        if (within.startsWith('..') || path.isAbsolute(within)) throw new Refused(`${this.rel(full)} leads outside content/ (through a link)`);
        return full;
      }
      if (path.dirname(at) === at) throw new Refused(`${this.rel(full)} is outside content/`);
      rest.unshift(path.basename(at));
      at = path.dirname(at);
    }
  }

  /** `rel` inside content/, its real path too. */
  private async safe(rel: unknown): Promise<string> {
    return this.real(this.inside(rel));
  }

  /** An entry's path: its collection's folder and extension, or one of its files. */
  private async entry(rel: unknown): Promise<string> {
    const full = this.inside(rel);
    const refusal = entryRefusal(this.places, this.rel(full));
    if (refusal) throw new Refused(refusal);
    return this.real(full);
  }

  /** An image's path: in the media folder, named as the site's image paths allow. */
  private async image(rel: unknown): Promise<string> {
    const full = this.inside(rel);
    const refusal = mediaRefusal(this.places, this.rel(full));
    if (refusal) throw new Refused(refusal);
    return this.real(full);
  }

  private rel(full: string): string {
    return path.relative(this.root, full).split(path.sep).join('/');
  }

  async handle(body: unknown): Promise<CmsAnswer> {
    try {
      if (!body || typeof body !== 'object') throw new Refused('expected a JSON object');
      const { action, params = {} } = body as { action?: unknown; params?: Record<string, unknown> };
      if (!this.writes && WRITES.has(String(action))) {
        return { status: 403, json: { error: 'saving is off: site serve listens beyond this machine; restart it with --cms-writes to save from here' } };
      }
      switch (action) {
        case 'info':
          return ok({ repo: path.basename(this.root), publish_modes: ['simple'], type: 'local_fs' });
        case 'entriesByFolder':
          return ok(await this.entries(await this.list(params.folder, String(params.extension ?? ''), Number(params.depth ?? 1))));
        case 'entriesByFiles':
          return ok(await this.entries(await Promise.all(((params.files as Array<{ path: string; label?: string }>) ?? []).map(async (f) => ({ full: await this.safe(f.path), label: f.label })))));
        case 'getEntry': {
          const [entry] = await this.entries([{ full: await this.safe(params.path) }]);
          return ok(entry);
        }
        case 'persistEntry':
          return ok(await this.serial(() => this.persist(params)));
        case 'getMedia':
          return ok(await Promise.all((await this.list(params.mediaFolder, '', 1)).map(({ full }) => this.media(full))));
        case 'getMediaFile':
          return ok(await this.media(await this.safe(params.path)));
        case 'persistMedia':
          return ok(await this.serial(() => this.persistMedia(params.asset as Asset)));
        case 'deleteFile':
        case 'deleteFiles': {
          const paths = action === 'deleteFile' ? [params.path] : (params.paths as unknown[]) ?? [];
          const fulls = await Promise.all(paths.map((p) => this.image(p).catch(() => this.entry(p))));
          await this.serial(() => this.remove(fulls));
          return ok({ message: `deleted ${paths.join(', ')}` });
        }
        case 'getDeployPreview':
          return ok(null);
        default:
          return { status: 422, json: { error: `Unknown action ${String(action)}` } };
      }
    } catch (error) {
      if (error instanceof Refused) return { status: 422, json: { error: error.message } };
      if (error instanceof ContentErrors) return { status: 422, json: { error: error.errors.map(formatContentError).join('\n') } };
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { status: 404, json: { error: 'no such file' } };
      return { status: 500, json: { error: error instanceof Error ? error.message : String(error) } };
    }
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async list(folder: unknown, extension: string, depth: number): Promise<Array<{ full: string }>> {
    const dir = await this.safe(folder);
    const out: Array<{ full: string }> = [];
    const walk = async (at: string, level: number) => {
      for (const e of await readdir(at, { withFileTypes: true }).catch(() => [])) {
        if (e.name.startsWith('.')) continue;
        const full = path.join(at, e.name);
        if (e.isDirectory() && level < depth) await walk(full, level + 1);
        else if (e.isFile() && (!extension || e.name.endsWith(`.${extension}`))) out.push({ full });
      }
    };
    await walk(dir, 1);
    return out.sort((a, b) => a.full.localeCompare(b.full));
  }

  private entries(files: Array<{ full: string; label?: string }>) {
    return Promise.all(files.map(async ({ full, label }) => {
      const bytes = await readFile(full);
      return { data: bytes.toString('utf8'), file: { path: this.rel(full), label, id: sha(bytes) } };
    }));
  }

  private async media(full: string) {
    const bytes = await readFile(full);
    return { id: sha(bytes), content: bytes.toString('base64'), encoding: 'base64', path: this.rel(full), name: path.basename(full), size: (await stat(full)).size };
  }

  /**
   * The entry's files (and images) written into a scratch copy of content/ and the copy loaded as
   * the build loads it; only then written into content/, each by a rename, so that the watcher sees
   * a whole file. An error in a file this save wrote refuses it, with the build's message.
   */
  private async persist(params: Record<string, unknown>) {
    const entry = params.entry as DataFile | undefined;
    const dataFiles = (params.dataFiles as DataFile[] | undefined) ?? (entry ? [entry] : []);
    const assets = (params.assets as Asset[] | undefined) ?? [];
    const writes = new Map<string, Buffer>();
    const removes: string[] = [];
    for (const file of dataFiles) {
      if (typeof file.raw !== 'string') throw new Refused(`${file.path}: no content`);
      const target = await this.entry(file.newPath ?? file.path);
      writes.set(target, Buffer.from(await this.inItsStyle(await this.entry(file.path), file.raw), 'utf8'));
      if (file.newPath && file.newPath !== file.path) removes.push(await this.entry(file.path));
    }
    for (const a of assets) writes.set(await this.image(a?.path), decodeImage(a));
    await this.check(writes, removes);
    await this.commit(writes, removes);
    return { message: 'entry persisted' };
  }

  /**
   * The CMS's text of an existing entry written as an edit of the file: its YAML's order, style and
   * comments kept, so that a changed word changes its line alone (Decap prints the whole file afresh).
   */
  private async inItsStyle(existing: string, raw: string): Promise<string> {
    const before = await readFile(existing, 'utf8').catch(() => undefined);
    if (before === undefined) return raw;
    if (existing.endsWith('.yaml') || existing.endsWith('.yml')) return keepYamlStyle(before, raw);
    if (existing.endsWith('.md')) return keepFrontMatterStyle(before, raw);
    return raw;
  }

  private async persistMedia(asset: Asset) {
    const target = await this.image(asset?.path);
    const bytes = decodeImage(asset);
    // An image is checked as the build checks the images (its name, its kind).
    await this.check(new Map([[target, bytes]]), []);
    await this.commit(new Map([[target, bytes]]), []);
    return this.media(target);
  }

  private async remove(fulls: string[]) {
    await this.check(new Map(), fulls);
    await this.commit(new Map(), fulls);
  }

  private async check(writes: Map<string, Buffer>, removes: string[]): Promise<void> {
    const scratch = await mkdtemp(path.join(os.tmpdir(), 'site-cms-'));
    try {
      const copy = path.join(scratch, 'content');
      await cp(this.contentDir, copy, { recursive: true });
      const there = (full: string) => path.join(copy, path.relative(this.contentDir, full));
      for (const full of removes) await rm(there(full), { force: true });
      for (const [full, bytes] of writes) { await mkdir(path.dirname(there(full)), { recursive: true }); await writeFile(there(full), bytes); }
      const after = await errorsOf(this.validate(copy));
      if (!after.length) return;
      // The save's own files' errors refuse it, and any error it causes elsewhere (a link to a removed
      // file): an error the content had before, in a file the save leaves alone, does not.
      const before = new Set((await errorsOf(this.validate(this.contentDir))).map(keyOf));
      const mine = new Set([...writes.keys(), ...removes].map((f) => this.rel(f)));
      const refused = after.filter((e) => mine.has(e.file) || !before.has(keyOf(e)));
      if (refused.length) throw new ContentErrors(refused);
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  private async commit(writes: Map<string, Buffer>, removes: string[]): Promise<void> {
    for (const [full, bytes] of writes) {
      await mkdir(path.dirname(full), { recursive: true });
      const temp = tempFileFor(path.join(path.dirname(full), `.${path.basename(full)}`));
      await writeFile(temp, bytes);
      await rename(temp, full);
    }
    for (const full of removes) await unlink(full).catch(() => undefined);
  }
}

class Refused extends Error {}

const ok = (json: unknown): CmsAnswer => ({ status: 200, json });

/** An uploaded image's bytes; an SVG that could run script is refused. */
function decodeImage(asset: Asset): Buffer {
  if (asset.encoding !== 'base64' || typeof asset.content !== 'string') throw new Refused(`${asset.path}: unsupported encoding ${asset.encoding}`);
  const bytes = Buffer.from(asset.content, 'base64');
  const unsafe = asset.path.toLowerCase().endsWith('.svg') ? svgRefusal(bytes.toString('utf8')) : undefined;
  if (unsafe) throw new Refused(`${asset.path} ${unsafe}: the site serves an SVG at its own address, where it would run; remove it and upload again`);
  return bytes;
}

/** The content errors a load finds (none when it loads); any other failure is thrown. */
async function errorsOf(load: Promise<unknown>): Promise<ContentError[]> {
  try {
    await load;
    return [];
  } catch (error) {
    if (error instanceof ContentErrors) return error.errors;
    throw error;
  }
}

/** An error by what it says and where, its line aside (an edit above it moves it). */
const keyOf = (e: ContentError) => `${e.file}\0${e.path}\0${e.message}`;
