/** Where a step writes its output: text as it comes, then `end` once the step has finished. */
export interface Channel { write(text: string): void; end(): void }

/**
 * One channel per step, in the steps' order, all writing to `sink` as if the steps ran one after
 * another: a channel writes straight through while every channel before it has ended; until then
 * its text is held, and it is written out, in one piece, when the channel's turn comes.
 */
export function inTurn(count: number, sink: (text: string) => void): Channel[] {
  const held: string[][] = Array.from({ length: count }, () => []);
  const ended: boolean[] = new Array<boolean>(count).fill(false);
  let live = 0;
  return held.map((_, i) => ({
    write(text) { if (i === live) sink(text); else held[i]!.push(text); },
    end() {
      ended[i] = true;
      while (live < count && ended[live]) {
        live++;
        if (live < count && held[live]!.length > 0) sink(held[live]!.splice(0).join(''));
      }
    },
  }));
}
