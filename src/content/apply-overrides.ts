import { siteSchema, type SiteSettings } from './schemas.ts';
import type { ContentError } from './errors.ts';

// The settings a build takes from flags and the environment, checked by the settings schema as they are applied.

/** Settings that production may set from the environment rather than content/site.yaml. */
export const SETTINGS_FROM_ENV = {
  SITE_URL: 'url',
  SITE_FORM_ENDPOINT: 'formEndpoint',
  SITE_TAG_MANAGER_ID: 'tagManagerId',
} as const satisfies Record<string, keyof SiteSettings>;

/** `search: false` is `site build --no-search`: no index, no search page, for one build. */
export type SettingsOverrides = Partial<Pick<SiteSettings, (typeof SETTINGS_FROM_ENV)[keyof typeof SETTINGS_FROM_ENV] | 'search'>>;

export function overridesFromEnv(env: Record<string, string | undefined>): SettingsOverrides {
  const out: SettingsOverrides = {};
  for (const [name, key] of Object.entries(SETTINGS_FROM_ENV)) {
    const value = env[name];
    if (value !== undefined && value !== '') out[key] = value;
  }
  return out;
}

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
