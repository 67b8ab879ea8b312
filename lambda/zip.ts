// A minimal ZIP writer (deflate, no ZIP64): enough for a Lambda deployment package of a few
// files, without a dependency. Entries get a fixed timestamp so the same input gives the same
// bytes, and the archive's hash only changes when the code does.
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntry {
  /** Path inside the archive, forward slashes. */
  name: string;
  data: Buffer;
  /** Unix permission bits; Lambda needs the file readable by its runtime user. */
  mode?: number;
}

// 1980-01-01 00:00:00, the earliest DOS date: (0 << 9) | (1 << 5) | 1.
const DOS_DATE = 0x21;
const DOS_TIME = 0;
const VERSION_NEEDED = 20; // 2.0: deflate
const MADE_BY_UNIX = (3 << 8) | VERSION_NEEDED;
const UTF8_NAMES = 0x0800;
const DEFLATE = 8;

function localHeader(name: Buffer, crc: number, compressed: number, size: number): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(VERSION_NEEDED, 4);
  header.writeUInt16LE(UTF8_NAMES, 6);
  header.writeUInt16LE(DEFLATE, 8);
  header.writeUInt16LE(DOS_TIME, 10);
  header.writeUInt16LE(DOS_DATE, 12);
  header.writeUInt32LE(crc, 14);
  header.writeUInt32LE(compressed, 18);
  header.writeUInt32LE(size, 22);
  header.writeUInt16LE(name.length, 26);
  header.writeUInt16LE(0, 28);
  return Buffer.concat([header, name]);
}

function centralHeader(
  name: Buffer,
  crc: number,
  compressed: number,
  size: number,
  mode: number,
  offset: number,
): Buffer {
  const header = Buffer.alloc(46);
  header.writeUInt32LE(0x02014b50, 0);
  header.writeUInt16LE(MADE_BY_UNIX, 4);
  header.writeUInt16LE(VERSION_NEEDED, 6);
  header.writeUInt16LE(UTF8_NAMES, 8);
  header.writeUInt16LE(DEFLATE, 10);
  header.writeUInt16LE(DOS_TIME, 12);
  header.writeUInt16LE(DOS_DATE, 14);
  header.writeUInt32LE(crc, 16);
  header.writeUInt32LE(compressed, 20);
  header.writeUInt32LE(size, 24);
  header.writeUInt16LE(name.length, 28);
  // extra length, comment length, disk number, internal attributes: all 0
  header.writeUInt32LE(((0o100000 | mode) << 16) >>> 0, 38); // regular file + permissions
  header.writeUInt32LE(offset, 42);
  return Buffer.concat([header, name]);
}

export function createZip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const compressed = deflateRawSync(entry.data, { level: 9 });
    const crc = crc32(entry.data) >>> 0;
    const local = Buffer.concat([localHeader(name, crc, compressed.length, entry.data.length), compressed]);
    centrals.push(centralHeader(name, crc, compressed.length, entry.data.length, entry.mode ?? 0o644, offset));
    locals.push(local);
    offset += local.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
