/** The findings check-links passes from checking to reporting. */
import type { PageScan } from './extract.ts';

/** One built HTML page. */
export interface Page {
  /** The URL it answers: '/about' for about.html, '/404.html' for 404.html. */
  url: string;
  /** Its file under the dist dir, root-relative: '/about.html'. */
  file: string;
  scan: PageScan;
}

export type ProblemKind =
  | 'not-found' // the server answers 404 (or another error status)
  | 'missing-file' // routing names a file that is not in the dist dir
  | 'fragment' // no element with that id on the target page
  | 'trailing-slash'
  | 'relative' // a relative URL, against the URL policy
  | 'non-canonical' // the server redirects it for normalisation
  | 'redirect' // a redirect loop or chain that is too long
  | 'unsafe' // javascript: URLs
  | 'invalid' // not a URL at all, or an empty src
  | 'external'; // a fetched external URL that failed

export interface Problem {
  page: string;
  link: string;
  reason: string;
  kind: ProblemKind;
}

export interface GroupedProblem {
  link: string;
  reason: string;
  kind: ProblemKind;
  /** How many pages have it (all of them, or nearly). */
  pages: number;
}

export interface DuplicateId {
  page: string;
  id: string;
  count: number;
}

export interface ExternalLink {
  url: string;
  /** Pages that link to it. */
  pages: string[];
}

export interface ExternalResult {
  url: string;
  ok: boolean;
  status?: number;
  error?: string;
}

export interface Findings {
  /** Checked as a plain static host serves the folder (no .site/deploy/routing.json beside it), without our URL conventions. */
  staticHost: boolean;
  pages: number;
  /** Internal link occurrences checked (every href/src/srcset candidate into the site). */
  internal: number;
  /** Distinct external URLs (without fragment), in order of first appearance. */
  external: ExternalLink[];
  /** Every broken link, per page (before layout grouping). */
  problems: Problem[];
  duplicateIds: DuplicateId[];
  /** For each link as written, how many pages contain it: the base for layout grouping. */
  linkPages: Map<string, number>;
}
