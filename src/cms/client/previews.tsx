// Each collection's preview: the site's own template for that page type, from the entry being edited.
import type { ComponentType } from 'react';

type PreviewApi = typeof import('decap-cms-app').default;

export function registerPreviews(_cms: PreviewApi, _collections: Array<Record<string, unknown>>): void {
  // Filled in by the preview templates (see below).
}
