/**
 * Cookie consent: the stored record, the dialog's state machine, and what a choice tells the tag
 * manager. Pure functions apart from `readConsent`, `storeConsent` and `announceConsent`.
 */
export const CONSENT_KEY = 'cookieConsent';

export interface ConsentChoice { analytics: boolean; marketing: boolean }

/** What is stored: the choice, when it was made, and the version of the cookie policy it answers. */
export interface ConsentRecord extends ConsentChoice { necessary: true; timestamp: string; version: number }

export type StoredConsent =
  | { status: 'none' }
  | { status: 'valid'; record: ConsentRecord }
  | { status: 'outdated'; record: ConsentRecord }
  | { status: 'corrupt'; error: string };

export function parseConsent(raw: string | null, version: number): StoredConsent {
  if (raw === null) return { status: 'none' };
  let value: unknown;
  try { value = JSON.parse(raw); } catch (error) { return { status: 'corrupt', error: `not JSON: ${String(error)}` }; }
  if (!value || typeof value !== 'object') return { status: 'corrupt', error: 'not an object' };
  const v = value as Record<string, unknown>;
  if (typeof v.analytics !== 'boolean' || typeof v.marketing !== 'boolean') return { status: 'corrupt', error: 'analytics and marketing must be true or false' };
  const record: ConsentRecord = {
    necessary: true, analytics: v.analytics, marketing: v.marketing,
    timestamp: typeof v.timestamp === 'string' ? v.timestamp : '', version: typeof v.version === 'number' ? v.version : 0,
  };
  return record.version === version ? { status: 'valid', record } : { status: 'outdated', record };
}

export function makeRecord(choice: ConsentChoice, version: number, now: Date): ConsentRecord {
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
  const saved = stored.status === 'valid' ? { analytics: stored.record.analytics, marketing: stored.record.marketing } : undefined;
  return { banner: !saved, dialog: false, draft: saved ?? { analytics: false, marketing: false }, saved };
}

/** `saved` changes only on a choice; the caller stores and announces it when it does. */
export function consentReducer(state: ConsentState, action: ConsentAction): ConsentState {
  switch (action.type) {
    case 'acceptAll': {
      const choice = { analytics: true, marketing: true };
      return { banner: false, dialog: false, draft: choice, saved: choice };
    }
    case 'necessaryOnly': {
      const choice = { analytics: false, marketing: false };
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
      return { ...state, dialog: false, draft: state.saved ?? { analytics: false, marketing: false } };
  }
}

type Gtag = (command: 'consent', action: 'update', params: Record<string, 'granted' | 'denied'>) => void;
interface ConsentWindow { dataLayer?: unknown[]; gtag?: Gtag }

/** The consent-mode signals a choice sends. */
export function consentSignals(choice: ConsentChoice) {
  const g = (on: boolean) => (on ? 'granted' : 'denied') as 'granted' | 'denied';
  return {
    analytics_storage: g(choice.analytics),
    ad_storage: g(choice.marketing),
    ad_user_data: g(choice.marketing),
    ad_personalization: g(choice.marketing),
    personalization_storage: g(choice.marketing),
  };
}

export function readConsent(storage: Pick<Storage, 'getItem'>, version: number): StoredConsent {
  let raw: string | null = null;
  try { raw = storage.getItem(CONSENT_KEY); } catch { return { status: 'none' }; }
  const stored = parseConsent(raw, version);
  if (stored.status === 'corrupt') console.error(`Ignoring the stored cookie preference (${stored.error})`);
  return stored;
}

export function storeConsent(storage: Pick<Storage, 'setItem'>, record: ConsentRecord): void {
  try { storage.setItem(CONSENT_KEY, JSON.stringify(record)); } catch { /* private mode: the choice holds for this page only */ }
}

/** Every choice goes to the data layer, and to gtag's consent mode when a tag manager is present. */
export function announceConsent(win: ConsentWindow, choice: ConsentChoice): void {
  (win.dataLayer ??= []).push({ event: 'consent_update', analytics_consent: choice.analytics, marketing_consent: choice.marketing });
  win.gtag?.('consent', 'update', consentSignals(choice));
}
