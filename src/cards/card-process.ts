/**
 * Share cards drawn in a Node process of their own at the lowest scheduling priority (nice 19), so
 * that drawing, which nothing else in a build waits for until its very end, takes only the CPU the
 * build leaves idle: on a 2-core machine, cards drawn beside the pages took CPU from the rendering and
 * the search index, which everything after them waits for (docs/performance.md, What was tried).
 * The process loads the build's bundled drawing code (code.ts's cards.mjs) once it is told where it
 * is, and draws every card it is sent as soon as it gets it; the build takes each PNG as it comes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { CardJob } from './plan.ts';
import { FALLBACK_SAID_ENV } from './engine.ts';

/**
 * The process's own code, evaluated as a script so it needs no file of its own. Its priority is
 * lowered first, before the threads that draw (libuv's, takumi's) exist: on Linux a thread takes its
 * nice value from the thread that makes it. Its standard error is the build's; where takumi's native
 * binding does not load, the build's main thread says so, and this process falls back silently (see
 * engine.ts).
 */
const SOURCE = `
const os = require('node:os');
try { os.setPriority(19); } catch {}
// V8's own threads, made before this code ran, too (Linux names each thread in /proc).
try { for (const tid of require('node:fs').readdirSync('/proc/self/task')) os.setPriority(Number(tid), 19); } catch {}
let drawer;
process.on('disconnect', () => process.exit(0));
process.on('message', (message) => {
  if (message.load) {
    drawer = import(message.load);
    drawer.then((d) => d.warmDrawing(), () => {});
    return;
  }
  drawer.then((d) => d.drawCard(message.job)).then(
    (png) => process.send({ id: message.id, png }),
    (error) => process.send({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
`;

interface Waiting { resolve: (png: Uint8Array) => void; reject: (error: Error) => void }

export class CardProcess {
  private readonly child: ChildProcess;
  private readonly waiting = new Map<number, Waiting>();
  private next = 0;
  private loaded: string | undefined;
  private failed: Error | undefined;
  private closed = false;
  /** Settled once the process has gone (or could not start). */
  private readonly gone: Promise<void>;

  /** Started now, idle (and at nice 19, hardly there) until `load` says where the drawing code is. */
  constructor() {
    this.child = spawn(process.execPath, ['-e', SOURCE], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // PNG bytes come back as they are, not as JSON.
      serialization: 'advanced',
      env: { ...process.env, NODE_ENV: 'production', [FALLBACK_SAID_ENV]: '1' },
    });
    // Neither the process nor its channel keeps the build's process running: `close` ends it, and it ends itself when the channel does.
    this.child.unref();
    this.child.channel?.unref();
    this.child.on('message', (message: { id: number; png?: Uint8Array; error?: string }) => {
      const waiting = this.waiting.get(message.id);
      this.waiting.delete(message.id);
      if (message.error !== undefined) waiting?.reject(new Error(message.error));
      else waiting?.resolve(message.png!);
      if (!this.waiting.size) this.child.channel?.unref();
    });
    this.gone = new Promise((resolve) => { this.child.once('exit', () => resolve()); this.child.once('error', () => resolve()); });
    this.child.on('error', (error) => this.fail(error));
    this.child.on('exit', (code, signal) => this.fail(new Error(`the share-card process stopped (${signal ?? `exit code ${code}`})`)));
  }

  /** The process's id, while it runs. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The bundled drawing code (a file URL) the cards are drawn with; loaded, and takumi with its fonts made ready, at once. */
  load(cardsUrl: string): this {
    if (this.loaded !== cardsUrl && !this.failed) {
      this.loaded = cardsUrl;
      this.child.send({ load: cardsUrl });
    }
    return this;
  }

  /** One card as PNG bytes, drawn with the code `load` named. */
  draw(job: CardJob): Promise<Uint8Array> {
    if (this.failed) return Promise.reject(this.failed);
    if (!this.loaded) return Promise.reject(new Error('the share-card process was sent a card before its drawing code'));
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      // While a card is awaited, the channel keeps the build's process alive.
      this.child.channel?.ref();
      this.child.send({ id, job });
    });
  }

  private fail(error: Error): void {
    if (this.closed) return;
    this.failed ??= error;
    for (const waiting of this.waiting.values()) waiting.reject(this.failed);
    this.waiting.clear();
  }

  /**
   * Ends the process; a card still awaited fails. Settles once it has gone: at nice 19 on a busy
   * machine it may take a while to be scheduled and die, and a build must leave no process behind.
   */
  close(): Promise<void> {
    if (!this.closed) {
      this.fail(new Error('the share-card process was stopped'));
      this.closed = true;
      // Held by the event loop until it has gone, so that awaiting its end keeps the build's process alive.
      if (this.child.exitCode === null && this.child.signalCode === null) { this.child.ref(); this.child.kill(); }
    }
    return this.child.exitCode !== null || this.child.signalCode !== null ? Promise.resolve() : this.gone;
  }
}
