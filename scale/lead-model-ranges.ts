// The lead model's full sweep run in seed ranges, one after another and on more than one day: each
// range's report is kept in lead-model-ranges.json (appended by `npx tsx scripts/lead-model.ts N
// FIRST PROCESSES --record`), and the ranges together are read as one sweep. A schedule is drawn
// from its seed alone, so ranges that meet without gaps or overlaps are the whole sweep, whatever
// day or machine ran each; the commit each ran at is kept with it.
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { combined, shortfalls, type Exercised } from '../tests/lambda/lead-model.ts';

export const RANGES_FILE = fileURLToPath(new URL('./lead-model-ranges.json', import.meta.url));

/** One range's report: seeds `first` to `first + schedules - 1`, each schedule run to its end. */
export interface RangeRecord {
  first: number;
  schedules: number;
  broken: number;
  figures: Exercised;
  /** The commit the range ran at, and the day. */
  commit: string;
  date: string;
  processes: number;
  seconds: number;
}

export interface RangesSummary {
  /** The seeds covered, as runs of consecutive ranges: [first, last] each. */
  covered: Array<[number, number]>;
  /** Seeds of 1..`upTo` no range ran, as [first, last] runs. */
  gaps: Array<[number, number]>;
  /** Ranges that share a seed with an earlier one. */
  overlaps: string[];
  broken: number;
  figures: Exercised;
  /** Against the model's bar: the sum's, then each range's own (each range holds the bar alone). */
  shortfalls: string[];
}

export async function readRanges(file = RANGES_FILE): Promise<RangeRecord[]> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => { if (error.code === 'ENOENT') return '[]'; throw error; });
  return JSON.parse(text) as RangeRecord[];
}

/** Appends one range's report; a range that shares a seed with one kept already is refused. */
export async function recordRange(record: RangeRecord, file = RANGES_FILE): Promise<void> {
  const ranges = await readRanges(file);
  const clash = ranges.find((r) => record.first < r.first + r.schedules && r.first < record.first + record.schedules);
  if (clash) throw new Error(`seeds ${record.first}–${record.first + record.schedules - 1} overlap the range kept from ${clash.first} (${clash.schedules} schedules, ${clash.date})`);
  ranges.push(record);
  ranges.sort((a, b) => a.first - b.first);
  await writeFile(file, `${JSON.stringify(ranges, null, 1)}\n`);
}

export function summarise(ranges: readonly RangeRecord[], upTo: number): RangesSummary {
  const sorted = [...ranges].sort((a, b) => a.first - b.first);
  const covered: Array<[number, number]> = [];
  const overlaps: string[] = [];
  for (const r of sorted) {
    const last = r.first + r.schedules - 1;
    const run = covered.at(-1);
    if (run && r.first <= run[1]) overlaps.push(`seeds ${r.first}–${last} overlap seeds ${run[0]}–${run[1]}`);
    if (run && r.first <= run[1] + 1) run[1] = Math.max(run[1], last);
    else covered.push([r.first, last]);
  }
  const gaps: Array<[number, number]> = [];
  let next = 1;
  for (const [first, last] of covered) {
    if (first > upTo) break;
    if (first > next) gaps.push([next, first - 1]);
    next = Math.max(next, last + 1);
  }
  if (next <= upTo) gaps.push([next, upTo]);
  const figures = combined(sorted.map((r) => r.figures));
  const own = sorted.flatMap((r) => shortfalls(r.figures).map((s) => `seeds ${r.first}–${r.first + r.schedules - 1}: ${s}`));
  return { covered, gaps, overlaps, broken: sorted.reduce((n, r) => n + r.broken, 0), figures, shortfalls: [...shortfalls(figures), ...own] };
}
