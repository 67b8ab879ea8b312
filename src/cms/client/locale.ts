// Decap's English words where they fail an author: a field's error in the field's own words (not
// "didn't match the pattern"), and a refused save pointing at the message that stays (messages.ts).
import type CMS from 'decap-cms-app';

type Phrases = Record<string, unknown>;

const OVERRIDES: Phrases = {
  editor: { editorControlPane: { widget: { regexPattern: '%{fieldLabel}: %{pattern}.' } } },
  ui: { toast: { onFailToPersist: 'Not saved: the reason is shown at the top of the page.' } },
};

function merge(base: Phrases, over: Phrases): Phrases {
  const out: Phrases = { ...base };
  for (const [k, v] of Object.entries(over)) {
    out[k] = v && typeof v === 'object' && base[k] && typeof base[k] === 'object' ? merge(base[k] as Phrases, v as Phrases) : v;
  }
  return out;
}

export function registerWords(cms: typeof CMS): void {
  const en = (cms.getLocale('en') ?? {}) as Phrases;
  cms.registerLocale('en', merge(en, OVERRIDES) as never);
}
