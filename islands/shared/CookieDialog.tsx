import { useEffect, useRef, type KeyboardEvent } from 'react';
import type { ConsentAction, ConsentChoice, ConsentState } from './consent.ts';
import { trapTab } from './focus.ts';

const CATEGORIES = [
  { key: 'necessary', title: 'Necessary Cookies', text: 'Keep the site working and secure, and remember this choice. They cannot be switched off.' },
  { key: 'analytics', title: 'Analytics Cookies', text: 'Tell us, anonymously, which pages are read and how people find them, so we can improve the site.' },
  { key: 'marketing', title: 'Marketing Cookies', text: 'Let us measure our campaigns and show relevant messages on other sites.' },
] as const;

/** The 'Cookie Preferences' modal (APG dialog): focus moves in, Tab is kept inside, Escape cancels. */
export function CookieDialog({ draft, onToggle, onSave, onCancel, policyHref }: {
  draft: ConsentChoice; onToggle: (key: 'analytics' | 'marketing') => void; onSave: () => void; onCancel: () => void; policyHref: string;
}) {
  const dialog = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => { heading.current?.focus(); }, []);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') { event.stopPropagation(); onCancel(); }
    else if (dialog.current) trapTab(event.nativeEvent, dialog.current);
  };
  return (
    <div className="modal">
      <div className="modal__backdrop" aria-hidden="true" />
      <div ref={dialog} className="modal__panel" role="dialog" aria-modal="true" aria-labelledby="cookie-dialog-title" aria-describedby="cookie-dialog-text" onKeyDown={onKeyDown}>
        <h2 id="cookie-dialog-title" ref={heading} tabIndex={-1}>Cookie Preferences</h2>
        <p id="cookie-dialog-text">Choose which cookies we may use. You can change your mind at any time from ‘Cookie settings’ at the foot of every page. Read more in our <a href={policyHref}>Privacy Policy</a>.</p>
        <ul className="consent-list">
          {CATEGORIES.map((c) => {
            const checked = c.key === 'necessary' ? true : draft[c.key];
            return (
              <li key={c.key} className="consent-option">
                <div>
                  <p className="consent-option__title" id={`consent-${c.key}-label`}>{c.title}{c.key === 'necessary' && <span className="consent-option__badge"> (always on)</span>}</p>
                  <p className="consent-option__text" id={`consent-${c.key}-text`}>{c.text}</p>
                </div>
                <button
                  type="button" role="switch" className="switch" aria-checked={checked} aria-labelledby={`consent-${c.key}-label`} aria-describedby={`consent-${c.key}-text`}
                  disabled={c.key === 'necessary'} onClick={() => { if (c.key !== 'necessary') onToggle(c.key); }}
                >
                  <span className="switch__thumb" aria-hidden="true" />
                </button>
              </li>
            );
          })}
        </ul>
        <div className="modal__actions">
          <button type="button" className="button button--ghost" onClick={onCancel}>Cancel</button>
          <button type="button" className="button button--secondary" onClick={onSave}>Save Preferences</button>
        </div>
      </div>
    </div>
  );
}

/** The preferences dialog wired to a consent state machine: shown while `state.dialog` is true. */
export function ConsentPreferences({ state, act, policyHref }: { state: ConsentState; act: (action: ConsentAction) => void; policyHref: string }) {
  if (!state.dialog) return null;
  return (
    <CookieDialog
      draft={state.draft} policyHref={policyHref}
      onToggle={(category) => act({ type: 'toggle', category })}
      onSave={() => act({ type: 'save' })} onCancel={() => act({ type: 'cancel' })}
    />
  );
}
