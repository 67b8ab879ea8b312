// Decap CMS's local backend, the protocol its `decap-server` speaks (POST { action, params } as JSON),
// answered by `site serve` itself: it reads and writes content/ as an author's editor would, and
// refuses a save the build would refuse, with the build's own message, leaving the file as it was.
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readFile, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ContentErrors, formatContentError } from '../content/errors.ts';

/** The largest request body taken (an uploaded image travels in it, base64). */
export const CMS_BODY_LIMIT = 12 * 1024 * 1024;

export interface CmsAnswer { status: number; json: unknown }

interface DataFile { path: string; raw: string; newPath?: string }
interface Asset { path: string; content: string; encoding: string }

/** Loads a content folder as the build does; throws ContentErrors. */
export type ValidateContent = (contentDir: string) => Promise<unknown>;

const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

export class CmsLocalBackend {
  private readonly contentDir: string;
  /** One save at a time: each is validated against the content as the save before left it. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly root: string, private readonly validate: ValidateContent) {
    this.contentDir = path.join(root, 'content');
  }

  /** A path the CMS names, inside content/ or refused: no '..', no absolute path, no dotfile. */
  private inside(rel: unknown): string {
    if (typeof rel !== 'string' || !rel || path.isAbsolute(rel) || rel.includes('\0')) throw new Refused(`not a content path: ${String(rel)}`);
    const full = path.resolve(this.root, rel);
    const within = path.relative(this.contentDir, full);
    if (within.startsWith('..') || path.isAbsolute(within) || within.split(path.sep).some((part) => part.startsWith('.'))) throw new Refused(`${rel} is outside content/`);
    return full;
  }

  private rel(full: string): string {
    return path.relative(this.root, full).split(path.sep).join('/');
  }

  async handle(body: unknown): Promise<CmsAnswer> {
    try {
      if (!body || typeof body !== 'object') throw new Refused('expected a JSON object');
      const { action, params = {} } = body as { action?: unknown; params?: Record<string, unknown> };
      switch (action) {
        case 'info':
          return ok({ repo: path.basename(this.root), publish_modes: ['simple'], type: 'local_fs' });
        case 'entriesByFolder':
          return ok(await this.entries(await this.list(params.folder, String(params.extension ?? ''), Number(params.depth ?? 1))));
        case 'entriesByFiles':
          return ok(await this.entries(((params.files as Array<{ path: string; label?: string }>) ?? []).map((f) => ({ full: this.inside(f.path), label: f.label }))));
        case 'getEntry': {
          const [entry] = await this.entries([{ full: this.inside(params.path) }]);
          return ok(entry);
        }
        case 'persistEntry':
          return ok(await this.serial(() => this.persist(params)));
        case 'getMedia':
          return ok(await Promise.all((await this.list(params.mediaFolder, '', 1)).map(({ full }) => this.media(full))));
        case 'getMediaFile':
          return ok(await this.media(this.inside(params.path)));
        case 'persistMedia':
          return ok(await this.serial(() => this.persistMedia(params.asset as Asset)));
        case 'deleteFile':
        case 'deleteFiles': {
          const paths = action === 'deleteFile' ? [params.path] : (params.paths as unknown[]) ?? [];
          await this.serial(() => this.remove(paths.map((p) => this.inside(p))));
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
    const dir = this.inside(folder);
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
      const target = this.inside(file.newPath ?? file.path);
      writes.set(target, Buffer.from(file.raw, 'utf8'));
      if (file.newPath && file.newPath !== file.path) removes.push(this.inside(file.path));
    }
    for (const a of assets) writes.set(this.inside(a.path), decode(a));
    await this.check(writes, removes);
    await this.commit(writes, removes);
    return { message: 'entry persisted' };
  }

  private async persistMedia(asset: Asset) {
    const target = this.inside(asset.path);
    const bytes = decode(asset);
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
      try {
        await this.validate(copy);
      } catch (error) {
        if (!(error instanceof ContentErrors)) throw error;
        const mine = new Set([...writes.keys(), ...removes].map((f) => this.rel(f)));
        // The save's own files' errors refuse it; so does any error a removal causes (a link to the removed file).
        const refused = removes.length ? error.errors : error.errors.filter((e) => mine.has(e.file) || [...mine].some((m) => e.message.includes(m)));
        if (refused.length) throw new ContentErrors(refused);
      }
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  }

  private async commit(writes: Map<string, Buffer>, removes: string[]): Promise<void> {
    for (const [full, bytes] of writes) {
      await mkdir(path.dirname(full), { recursive: true });
      const temp = path.join(path.dirname(full), `.${path.basename(full)}.${process.pid}.tmp`);
      await writeFile(temp, bytes);
      await rename(temp, full);
    }
    for (const full of removes) await unlink(full).catch(() => undefined);
  }
}

class Refused extends Error {}

const ok = (json: unknown): CmsAnswer => ({ status: 200, json });

function decode(asset: Asset): Buffer {
  if (asset.encoding !== 'base64') throw new Refused(`${asset.path}: unsupported encoding ${asset.encoding}`);
  return Buffer.from(asset.content, 'base64');
}
