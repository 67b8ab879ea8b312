// What `site serve` is asked to do (ServerOptions) and what it answers from (ServeState), shared by
// the server (server.ts), which builds and watches, and its request handler (request-handler.ts).
import type { BuildSession } from '../pipeline/build.ts';
import type { RoutingTable } from '../url-resolution/resolve.ts';
import type { OutputLayout } from '../output/layout.ts';
import type { HeadersFile } from '../response-headers.ts';
import type { LocalFormBackend } from '../../lambda/local-backend.ts';
import type { Logger } from '../../lambda/log.ts';
import type { serveCms, CmsSiteFacts } from '../cms/serve-cms.ts';
import type { ReloadChannel } from './live-reload.ts';
import type { LiveSite } from './live-site.ts';
import type { StartupSaves } from './startup-saves.ts';
import type { RecordedSaves } from './recorded-saves.ts';

export interface ServerOptions {
  root: string;
  /** Where to build (or, with `prebuilt`, the build to serve); by default serve's own folder, never dist/. */
  outDir?: string;
  port: number;
  host: string;
  watch?: boolean;
  /** Serve an existing build (its routing table beside it) instead of building first. */
  prebuilt?: boolean;
  log?: (line: string) => void;
  /** Run the form endpoint (the production handler, sending to a local SES server) at its path. */
  forms?: boolean;
  /** Local form backend: where the leads table keeps its data (in memory when unset), an SES endpoint to use instead of a local one, the retention period, whether the volume limits apply (by default they do). */
  formsOptions?: { dataDir?: string; sesEndpoint?: string; retentionMonths?: number; limits?: boolean };
  /** Where the form handler's JSON log lines go (default: quiet). */
  formLog?: Logger;
  /** A fixed clock for every rebuild (--now); by default each rebuild reads the real time. */
  now?: Date;
  /** The content manager at /admin, writing into content/ (on unless false). */
  cms?: boolean;
  /**
   * Whether the content manager saves when serve listens beyond this machine (a --host other than
   * loopback): off unless asked for, since anyone who can reach the port could then write content/.
   */
  cmsWrites?: boolean;
  /** Called once the server listens, before its first build is done (which `startServer` waits for). */
  listening?: (url: string) => void;
  /** Awaited by the first build, over an earlier build's pages, once it has planned and before it renders (a test holds it there to save meanwhile). */
  firstBuildPlanned?: () => Promise<void>;
  /** Awaited by the first build, over an earlier build's pages, before it loads the content (a test holds it there to save meanwhile). */
  firstBuildStarting?: () => Promise<void>;
}
/** What the server answers from: set by each build, changed by each save. */
export interface ServeState {
  readonly opts: ServerOptions;
  readonly log: (line: string) => void;
  readonly outDir: string;
  /**
   * Where it builds: by default a family of its own, .site/serve/ (see output/layout.ts), so that its
   * pages (which load the live-reload script) never reach dist/, and a production build is left as it was.
   */
  readonly layout: OutputLayout;
  readonly reload: ReloadChannel;
  /** The bundled code and assets, reused from build to build until a template or island changes. */
  readonly session: BuildSession;
  table?: RoutingTable;
  formPath: string;
  /** Started once the port is known, after listen. */
  forms?: LocalFormBackend;
  /** The form backend while it loads: a post that arrives before it is ready waits for it. */
  formsLoading?: Promise<LocalFormBackend | undefined>;
  failure?: string[];
  /** The last build's site and what saves have changed since, served from memory (see live-site.ts). */
  live?: LiveSite;
  /** Project-relative paths saved since the last pass, and whether a whole build is wanted regardless. */
  saved: Set<string>;
  wholeBuild: boolean;
  /** The build's security headers, sent exactly as the CDN sends them (each path its own); re-read after each build. */
  headers: HeadersFile;
  /** While serve's first build runs over the pages an earlier one left: saves answered meanwhile (see `startupSaves`). */
  startup?: StartupSaves;
  /** Pages made from the last run's records during the start-up build (see recorded-saves.ts), answered until the build's own live site answers. */
  recorded?: RecordedSaves;
  /** The content manager's answers (see cms/serve-cms.ts), and what it needs of the last build. */
  cms?: ReturnType<typeof serveCms>;
  cmsFacts?: CmsSiteFacts;
}
