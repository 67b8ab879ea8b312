/**
 * Cookie consent: the saved choice, the dialog's state machine, and what a choice tells the tag
 * manager. Pure functions apart from `readConsent`, `storeConsent` and `announceConsent`.
 * The consent facts (the storage key, the default, the signals each choice decides, the events)
 * are written here once: the island uses them, and so does the script in every page's head that
 * applies them before any tag runs (src/render/inline-scripts.ts, written from these values).
 */
export const CONSENT_KEY = 'cookieConsent';

export interface ConsentChoice { analytics: boolean; marketing: boolean }

/** The choice in force until the visitor makes one: nothing optional. */
export const NO_CONSENT: Readonly<ConsentChoice> = { analytics: false, marketing: false };

/** The consent-mode signals each choice decides, in the order they are sent. */
export const SIGNALS_OF = {
  analytics: ['analytics_storage'],
  marketing: ['ad_storage', 'ad_user_data', 'ad_personalization', 'personalization_storage'],
} as const satisfies Record<keyof ConsentChoice, readonly string[]>;

/** What the site needs to work: granted before any choice, whatever the choice. */
export const ALWAYS_GRANTED = ['functionality_storage', 'security_storage'] as const;

/** The choices, in the order of `SIGNALS_OF`. */
export const CONSENT_CATEGORIES = Object.keys(SIGNALS_OF) as (keyof ConsentChoice)[];

/** The data layer's events: the defaults before any tag, and every choice after. */
export const CONSENT_EVENTS = { default: 'consent_default', update: 'consent_update' } as const;

/** A choice's field in a data-layer event: `analytics_consent`, `marketing_consent`. */
export const consentField = (category: keyof ConsentChoice) => `${category}_consent` as const;

type Signal = 'granted' | 'denied';

/** What is stored: the choice, when it was made, and the version of the cookie policy it answers. */
export interface SavedConsent extends ConsentChoice { necessary: true; timestamp: string; version: number }

export type StoredConsent =
  | { status: 'none' }
  | { status: 'valid'; consent: SavedConsent }
  | { status: 'outdated'; consent: SavedConsent }
  | { status: 'corrupt'; error: string };

export function parseConsent(raw: string | null, version: number): StoredConsent {
  if (raw === null) return { status: 'none' };
  let value: unknown;
  try { value = JSON.parse(raw); } catch (error) { return { status: 'corrupt', error: `not JSON: ${String(error)}` }; }
  if (!value || typeof value !== 'object') return { status: 'corrupt', error: 'not an object' };
  const v = value as Record<string, unknown>;
  if (typeof v.analytics !== 'boolean' || typeof v.marketing !== 'boolean') return { status: 'corrupt', error: 'analytics and marketing must be true or false' };
  const consent: SavedConsent = {
    necessary: true, analytics: v.analytics, marketing: v.marketing,
    timestamp: typeof v.timestamp === 'string' ? v.timestamp : '', version: typeof v.version === 'number' ? v.version : 0,
  };
  return consent.version === version ? { status: 'valid', consent } : { status: 'outdated', consent };
}

export function makeSavedConsent(choice: ConsentChoice, version: number, now: Date): SavedConsent {
  return { necessary: true, analytics: choice.analytics, marketing: choice.marketing, timestamp: now.toISOString(), version };
}

/** The dialog and bar: what is shown, and the toggles before they are saved. */
export interface ConsentState { banner: boolean; dialog: boolean; draft: ConsentChoice; saved?: ConsentChoice }

export type ConsentAction =
  | { type: 'acceptAll' }
  | { type: 'necessaryOnly' }
  | { type: 'openPreferences' }
  | { type: 'toggle'; category: 'necessary' | 'analytics' | 'marketing' }
  | { type: 'save' }
  | { type: 'cancel' }
  | { type: 'restore'; choice: ConsentChoice };

export function initialConsentState(stored: StoredConsent): ConsentState {
  const saved = stored.status === 'valid' ? { analytics: stored.consent.analytics, marketing: stored.consent.marketing } : undefined;
  return { banner: !saved, dialog: false, draft: saved ?? { ...NO_CONSENT }, saved };
}

/** `saved` changes only on a choice; the caller stores and announces it when it does. */
export function consentReducer(state: ConsentState, action: ConsentAction): ConsentState {
  switch (action.type) {
    case 'acceptAll': {
      const choice = { analytics: true, marketing: true };
      return { banner: false, dialog: false, draft: choice, saved: choice };
    }
    case 'necessaryOnly': {
      const choice = { ...NO_CONSENT };
      return { banner: false, dialog: false, draft: choice, saved: choice };
    }
    case 'openPreferences':
      return { ...state, dialog: true, draft: state.saved ?? state.draft };
    case 'toggle':
      // Necessary cookies keep the site working: they cannot be switched off.
      if (action.category === 'necessary') return state;
      return { ...state, draft: { ...state.draft, [action.category]: !state.draft[action.category] } };
    case 'save':
      return { banner: false, dialog: false, draft: state.draft, saved: state.draft };
    case 'restore':
      return { banner: false, dialog: false, draft: action.choice, saved: action.choice };
    case 'cancel':
      return { ...state, dialog: false, draft: state.saved ?? { ...NO_CONSENT } };
  }
}

type Gtag = (command: 'consent', action: 'update', params: Record<string, Signal>) => void;
interface ConsentWindow { dataLayer?: unknown[]; gtag?: Gtag }

/** The consent-mode signals a choice sends. */
export function consentSignals(choice: ConsentChoice): Record<string, Signal> {
  const signals: Record<string, Signal> = {};
  for (const category of CONSENT_CATEGORIES) for (const signal of SIGNALS_OF[category]) signals[signal] = choice[category] ? 'granted' : 'denied';
  return signals;
}

/** The signals in force before any choice: the optional ones denied, what the site needs granted. */
export function defaultSignals(): Record<string, Signal> {
  return { ...consentSignals(NO_CONSENT), ...Object.fromEntries(ALWAYS_GRANTED.map((signal) => [signal, 'granted' as const])) };
}

/** The data-layer event that says which choice is in force. */
export function consentEvent(event: (typeof CONSENT_EVENTS)[keyof typeof CONSENT_EVENTS], choice: ConsentChoice): Record<string, unknown> {
  const fields: Record<string, unknown> = { event };
  for (const category of CONSENT_CATEGORIES) fields[consentField(category)] = choice[category];
  return fields;
}

export function readConsent(storage: Pick<Storage, 'getItem'>, version: number): StoredConsent {
  let raw: string | null = null;
  try { raw = storage.getItem(CONSENT_KEY); } catch { return { status: 'none' }; }
  const stored = parseConsent(raw, version);
  if (stored.status === 'corrupt') console.error(`Ignoring the stored cookie preference (${stored.error})`);
  return stored;
}

export function storeConsent(storage: Pick<Storage, 'setItem'>, consent: SavedConsent): void {
  try { storage.setItem(CONSENT_KEY, JSON.stringify(consent)); } catch { /* private mode: the choice holds for this page only */ }
}

/** Every choice goes to the data layer, and to gtag's consent mode when a tag manager is present. */
export function announceConsent(win: ConsentWindow, choice: ConsentChoice): void {
  (win.dataLayer ??= []).push(consentEvent(CONSENT_EVENTS.update, choice));
  win.gtag?.('consent', 'update', consentSignals(choice));
}
