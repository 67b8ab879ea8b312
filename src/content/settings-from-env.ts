// The settings a build takes from flags and the environment; checked by the settings schema where they
// are applied (apply-overrides.ts). Only a type of the schemas: `site build` reads these before it
// knows whether it loads zod.
import type { SiteSettings } from './schemas.ts';

/** Settings that production may set from the environment rather than content/site.yaml. */
export const SETTINGS_FROM_ENV = {
  SITE_URL: 'url',
  SITE_FORM_ENDPOINT: 'formEndpoint',
  SITE_TAG_MANAGER_ID: 'tagManagerId',
} as const satisfies Record<string, keyof SiteSettings>;

/**
 * `search: false` is `site build --no-search`: no index, no search page, for one build; `cms:
 * undefined` is `site build --no-cms`: no /admin, for one build.
 */
export type SettingsOverrides = Partial<Pick<SiteSettings, (typeof SETTINGS_FROM_ENV)[keyof typeof SETTINGS_FROM_ENV] | 'search' | 'cms'>>;

export function overridesFromEnv(env: Record<string, string | undefined>): SettingsOverrides {
  const out: SettingsOverrides = {};
  for (const [name, key] of Object.entries(SETTINGS_FROM_ENV)) {
    const value = env[name];
    if (value !== undefined && value !== '') out[key] = value;
  }
  return out;
}
