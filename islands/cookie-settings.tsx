import { useEffect, useRef, useState } from 'react';
import { ConsentPreferences } from './shared/CookieDialog.tsx';
import { useConsent } from './shared/use-consent.ts';

export interface CookieSettingsProps { version: number; policyHref: string }

/**
 * The footer's 'Cookie settings': withdrawing consent is as easy as giving it. Before hydration it
 * is a link to the cookie section of the privacy policy, which works without JavaScript.
 */
export default function CookieSettings({ version, policyHref }: CookieSettingsProps) {
  const [hydrated, setHydrated] = useState(false);
  const [state, act] = useConsent(version);
  const button = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (!state.dialog && wasOpen.current) button.current?.focus();
    wasOpen.current = state.dialog;
  }, [state.dialog]);

  if (!hydrated) return <a className="link-button" href={`${policyHref}#cookies`}>Cookie settings</a>;
  return (
    <>
      <button ref={button} type="button" className="link-button" aria-haspopup="dialog" onClick={() => act({ type: 'openPreferences' })}>Cookie settings</button>
      <ConsentPreferences state={state} act={act} policyHref={policyHref} />
    </>
  );
}
