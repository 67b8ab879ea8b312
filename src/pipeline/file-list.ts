// The file list a build writes beside its output tree (written-files.json): what it wrote to each
// file, and the texts many entries share; read whole by the next full build, or a few entries at the
// places the full build noted by a quick rebuild (quick-build.ts). Written by DistWriter (dist-writer.ts).
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { fileListPatch, formerFileList } from '../output/layout.ts';
import type { FileEntry } from '../output/tree-file.ts';

/**
 * What a build wrote to each file of its tree: its hash, and the size and time the file then had;
 * for a copied file, the SHA-256 of its bytes too (its `hash` names the source); for a page, also its
 * route's key, and what the build read from it and made it of besides (see render/stored-page.ts).
 */
export type FileMap = Record<string, WrittenFile>;
export interface WrittenFile extends FileEntry { sha256?: string; key?: string; about?: unknown }
/**
 * The file list: each file's entry, and the texts many entries hold alike, each kept once (see
 * `share`). A file of the older shape (the entries alone) is read as having no shared texts.
 */
export interface WrittenFiles { files: FileMap; shared: string[] }

/**
 * The entries a quick rebuild changed, kept beside a file list it did not write again (written-files.patch.json):
 * the list is that file's with these entries in place, and these texts after its shared ones (`baseShared` of them).
 */
export interface ListPatch { baseShared: number; files: FileMap; shared: string[] }

/**
 * A tree's file list as its build left it: the list, and the patch over it if a quick rebuild left one.
 * A list read in part (`readFileListAt`) holds only the entries asked for, and of the shared texts
 * only the patch's; `sharedText` reads any other when it is asked for.
 */
export interface ReadList { list: WrittenFiles; patch?: ListPatch; baseShared: number; sharedText?: (index: number) => string | undefined }

/** Where a part of the file list lies in its bytes: its first byte and the byte after it. */
export type ListPlace = [start: number, end: number];

/**
 * Where a whole list, as written, keeps each entry (its value, the object after the file's name) and
 * each shared text (a JSON string), and the file's size and time then: what a quick rebuild needs to
 * read a few of them (`readFileListAt`) rather than ten megabytes.
 */
export interface ListPlaces { size: number; mtimeMs: number; files: Map<string, ListPlace>; shared: ListPlace[] }

/** A tree's file list (`fileList`, the older records.json in its absence), with the patch beside it applied. */
export function readFileList(fileList: string): ReadList {
  let text: string | undefined;
  try { text = readFileSync(fileList, 'utf8'); } catch { text = undefined; }
  try { text ??= readFileSync(formerFileList(fileList), 'utf8'); } catch { text = undefined; }
  const list = readWrittenFiles(text);
  const baseShared = list.shared.length;
  const patch = readPatch(fileList, baseShared);
  if (patch) { Object.assign(list.files, patch.files); list.shared.push(...patch.shared); }
  return { list, patch, baseShared };
}

/**
 * A tree's file list read in part: the entries of `wanted` at their places (`ListPlaces` of the build
 * that wrote it, kept in its record), the patch beside it, and each other shared text when asked
 * for. A quick rebuild's: reading and searching ten megabytes for two entries, and parsing three of
 * shared texts, cost it 100–150 ms at 10,000 articles. Undefined if the file is not the one those
 * places describe (its size and time), or an entry cannot be read.
 */
export function readFileListAt(fileList: string, known: { size: number; mtimeMs: number; shared: readonly ListPlace[] }, wanted: ReadonlyArray<{ file: string; place: ListPlace | null }>): ReadList | undefined {
  let fd: number;
  try { fd = openSync(fileList, 'r'); } catch { return undefined; }
  try {
    const s = fstatSync(fd);
    if (s.size !== known.size || s.mtimeMs !== known.mtimeMs) return undefined;
    const baseShared = known.shared.length;
    const patch = readPatch(fileList, baseShared);
    const files: FileMap = {};
    for (const { file, place } of wanted) {
      if (patch && file in patch.files) files[file] = patch.files[file]!;
      else if (place) files[file] = JSON.parse(textAt(fd, place)) as WrittenFile;
    }
    // The base's texts left as holes, read when asked for (`sharedText`); the patch's in place after them.
    const shared: string[] = new Array<string>(baseShared);
    shared.push(...patch?.shared ?? []);
    const sharedText = (index: number): string | undefined => {
      const place = known.shared[index];
      if (!place) return undefined;
      let again: number | undefined;
      try {
        again = openSync(fileList, 'r');
        const text: unknown = JSON.parse(textAt(again, place));
        return typeof text === 'string' ? text : undefined;
      } catch { return undefined; } finally { if (again !== undefined) closeSync(again); }
    };
    return { list: { files, shared }, patch, baseShared, sharedText };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** The text at `place` of the open file `fd`. */
function textAt(fd: number, [start, end]: ListPlace): string {
  const bytes = Buffer.allocUnsafe(end - start);
  if (readSync(fd, bytes, 0, bytes.length, start) !== bytes.length) throw new Error('the file list is cut short');
  return bytes.toString('utf8');
}

function readPatch(fileList: string, baseShared: number): ListPatch | undefined {
  try {
    const read = JSON.parse(readFileSync(fileListPatch(fileList), 'utf8')) as ListPatch;
    return read.baseShared === baseShared && read.files && typeof read.files === 'object' && Array.isArray(read.shared) ? read : undefined;
  } catch { return undefined; }
}

export function readWrittenFiles(text: string | undefined): WrittenFiles {
  try {
    const parsed = text ? JSON.parse(text) as Partial<WrittenFiles> : {};
    if (parsed.files && typeof parsed.files === 'object' && Array.isArray(parsed.shared)) return { files: parsed.files, shared: parsed.shared };
    return { files: parsed as FileMap, shared: [] };
  } catch {
    return { files: {}, shared: [] };
  }
}

/**
 * The list as JSON.stringify writes it (its readers parse it so), made a part at a time so as to know
 * where each entry's value and each shared text lies in its bytes.
 */
export function listText(list: WrittenFiles): { text: string; files: Map<string, ListPlace>; shared: ListPlace[] } {
  const parts: string[] = [];
  let at = 0;
  const put = (part: string) => { parts.push(part); at += Buffer.byteLength(part); };
  const files = new Map<string, ListPlace>();
  put('{"files":{');
  let first = true;
  for (const [file, entry] of Object.entries(list.files)) {
    put(`${first ? '' : ','}${JSON.stringify(file)}:`);
    first = false;
    const start = at;
    put(JSON.stringify(entry));
    files.set(file, [start, at]);
  }
  put('},"shared":[');
  const shared = list.shared.map((text, i): ListPlace => {
    if (i) put(',');
    const start = at;
    put(JSON.stringify(text));
    return [start, at];
  });
  put(']}');
  return { text: parts.join(''), files, shared };
}
