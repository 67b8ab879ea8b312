import { useEffect, useReducer, useRef } from 'react';
import { announceConsent, consentReducer, initialConsentState, makeSavedConsent, readConsent, storeConsent, type ConsentAction } from './consent.ts';

/** The consent state machine wired to storage, the data layer and the <html> marker that shows the bar. */
export function useConsent(version: number) {
  const [state, dispatch] = useReducer(consentReducer, initialConsentState({ status: 'none' }));
  const current = useRef(state);
  current.current = state;

  useEffect(() => {
    // The first render matches the server's; what is stored is read only once hydrated.
    const stored = readConsent(window.localStorage, version);
    if (stored.status === 'valid') dispatch({ type: 'restore', choice: { analytics: stored.consent.analytics, marketing: stored.consent.marketing } });
  }, [version]);

  /** Dispatch, and when the action makes a choice: store it, announce it, hide the bar. */
  const act = (action: ConsentAction) => {
    const next = consentReducer(current.current, action);
    dispatch(action);
    if (next.saved && next.saved !== current.current.saved) {
      storeConsent(window.localStorage, makeSavedConsent(next.saved, version, new Date()));
      announceConsent(window as unknown as Parameters<typeof announceConsent>[0], next.saved);
      document.documentElement.removeAttribute('data-consent');
    }
  };
  return [state, act] as const;
}
