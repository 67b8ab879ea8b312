import { siteSchema, type SiteSettings } from './content/schemas.ts';

/** Settings that production may set from the environment rather than content/site.yaml. */
export const SETTINGS_FROM_ENV = {
  SITE_URL: 'url',
  SITE_FORM_ENDPOINT: 'formEndpoint',
  SITE_TAG_MANAGER_ID: 'tagManagerId',
} as const satisfies Record<string, keyof SiteSettings>;

export type SettingsOverrides = Partial<Pick<SiteSettings, (typeof SETTINGS_FROM_ENV)[keyof typeof SETTINGS_FROM_ENV]>>;

export function overridesFromEnv(env: Record<string, string | undefined>): SettingsOverrides {
  const out: SettingsOverrides = {};
  for (const [name, key] of Object.entries(SETTINGS_FROM_ENV)) {
    const value = env[name];
    if (value !== undefined && value !== '') out[key] = value;
  }
  return out;
}

/** The content's settings with the overrides applied, checked by the same schema; errors name the variable. */
export function applyOverrides(settings: SiteSettings, overrides: SettingsOverrides): SiteSettings {
  const result = siteSchema.safeParse({ ...settings, ...overrides });
  if (result.success) return result.data;
  const names = Object.fromEntries(Object.entries(SETTINGS_FROM_ENV).map(([env, key]) => [key, env]));
  const problems = result.error.issues.map((i) => `${names[String(i.path[0])] ?? String(i.path[0])}: ${i.message}`);
  throw new Error(`invalid setting override: ${problems.join('; ')}`);
}
