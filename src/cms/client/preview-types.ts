// What the previews draw with beside the entry (made by ../preview-context.ts, read by previews.tsx).
import type { RenderContext } from '../../page-api/site-context.tsx';
import type { CaseStudySummary } from '../../../templates/components/CaseStudyTeaser.tsx';

/** The page showing a YAML page file: `fill` names where its content goes, whole (`[prop]`) or by a top-level field (`[prop, field]`). */
export interface PagePreview { url: string; template: string; props: Record<string, unknown>; fill: Array<[prop: string, field?: string]> }

/** The page an entry of a folder is drawn as: its route's template, the props beside the entry, the prop that takes the entry, and its address but the slug. */
export interface FolderPreview { base: string; template: string; props: Record<string, unknown>; prop: string }

export interface PreviewContext {
  settings: RenderContext['settings']; images: RenderContext['images']; year: number; studyCta?: { heading: string; text: string };
  /** The case studies as their teasers, for a service's link to its case study. */
  studies?: CaseStudySummary[];
  /** Each YAML page's page: its address, template and the props beside its content (preview-context.ts). */
  pages?: Record<string, PagePreview>;
  /** Each folder's entry page, for a folder with no preview of its own (preview-context.ts). */
  folders?: Record<string, FolderPreview>;
}
