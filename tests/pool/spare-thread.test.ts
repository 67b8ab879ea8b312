// The thread bin/site starts for `site build` before the CLI loads, and the code that hands it work.
import { threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { dropSpareThread, SPARE_THREAD, SPARE_THREAD_SOURCE, threadRunning } from '../../src/pool/spare-thread.ts';
// @ts-expect-error: a plain .mjs script with no type declarations
import * as launcher from '../../scripts/spare-thread.mjs';

/** Asks a thread its id, with a word to send back. */
const ASK = "parentPort.postMessage({ id: require('node:worker_threads').threadId, word: data.word });";
const answer = (worker: ReturnType<typeof threadRunning>) => new Promise<{ id: number; word: string }>((resolve, reject) => {
  worker.once('message', resolve);
  worker.once('error', reject);
});
const holder = globalThis as Record<symbol, unknown>;

afterEach(() => dropSpareThread());

describe('the spare thread', () => {
  it("is the same thread and code in bin/site's script (run before anything is compiled) as in the CLI", () => {
    expect(launcher.SPARE_THREAD).toBe(SPARE_THREAD);
    expect(launcher.SPARE_THREAD_SOURCE).toBe(SPARE_THREAD_SOURCE);
  });

  it('started as bin/site starts it, is the thread the work is handed to, once', async () => {
    launcher.startSpareThread();
    // Read at once: a Worker's threadId is -1 once it has exited, which it may by the next await.
    const spareId = (holder[SPARE_THREAD] as { threadId: number }).threadId;
    const first = threadRunning(ASK, { word: 'first' });
    expect(holder[SPARE_THREAD]).toBeUndefined();
    expect(await answer(first)).toEqual({ id: spareId, word: 'first' });
    // Taken: the next work goes to a thread of its own.
    const second = threadRunning(ASK, { word: 'second' });
    const { id, word } = await answer(second);
    expect(word).toBe('second');
    expect(id).not.toBe(spareId);
    expect(id).not.toBe(threadId);
    await Promise.all([first.terminate(), second.terminate()]);
  });

  it('is let go when the command has nothing for it: stopped, and no later work goes to it', async () => {
    launcher.startSpareThread();
    const spare = holder[SPARE_THREAD] as { threadId: number; once: (event: 'exit', listener: (code: number) => void) => void };
    const spareId = spare.threadId;
    const exited = new Promise<boolean>((resolve) => spare.once('exit', () => resolve(true)));
    dropSpareThread();
    expect(await exited).toBe(true);
    const worker = threadRunning(ASK, { word: 'after' });
    expect((await answer(worker)).id).not.toBe(spareId);
    await worker.terminate();
  });
});
