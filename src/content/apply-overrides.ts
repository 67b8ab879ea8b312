import { siteSchema, type SiteSettings } from './schemas.ts';
import type { ContentError } from './errors.ts';
import { SETTINGS_FROM_ENV, type SettingsOverrides } from './settings-from-env.ts';

// The overrides checked by the settings schema as they are applied (the schema loads zod: the quick
// rebuild, which reads the overrides, never applies them).

/** An override (from a flag or the environment) that the settings schema refuses, in the shape of a content error. */
export class SettingsOverrideError extends Error {
  constructor(readonly problems: ContentError[]) {
    super(`invalid setting override: ${problems.map((p) => `${p.file}: ${p.message}`).join('; ')}`);
    this.name = 'SettingsOverrideError';
  }
}

/** The content's settings with the overrides applied, checked by the same schema; errors name the variable. */
export function applyOverrides(settings: SiteSettings, overrides: SettingsOverrides): SiteSettings {
  const result = siteSchema.safeParse({ ...settings, ...overrides });
  if (result.success) return result.data;
  const names = Object.fromEntries(Object.entries(SETTINGS_FROM_ENV).map(([env, key]) => [key, env]));
  throw new SettingsOverrideError(result.error.issues.map((i) => {
    const name = names[String(i.path[0])];
    return { file: name ? `environment ${name}` : 'flags', path: String(i.path[0]), message: i.message, hint: name ? `set ${name} to a valid value, or unset it to use content/site.yaml` : undefined };
  }));
}
