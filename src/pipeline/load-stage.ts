// The `load` stage: the content as read and validated.
import { loadSite, type ParseMarkdown, type Site, type KnownSources } from '../content/load.ts';
import { applyOverrides } from '../content/apply-overrides.ts';
import type { SettingsOverrides } from '../content/settings-from-env.ts';

/** `load`: the content, validated, with the flags' and environment's settings applied. */
export async function loadStage(contentDir: string, overrides: SettingsOverrides | undefined, parse: ParseMarkdown, sources: KnownSources): Promise<Site> {
  const loaded = await loadSite(contentDir, parse, sources);
  return overrides ? { ...loaded, settings: applyOverrides(loaded.settings, overrides) } : loaded;
}
