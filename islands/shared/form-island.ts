import { useEffect, useReducer, useRef, type Dispatch, type RefObject } from 'react';
import { fieldId } from './form-fields.tsx';
import { firstInvalidField, formReducer, initialFormState, type FormAction, type FormState } from './form-state.ts';

export interface FormIsland {
  state: FormState;
  dispatch: Dispatch<FormAction>;
  /** The submit button, which gets focus back after a failure if the browser dropped it while disabled. */
  submitRef: RefObject<HTMLButtonElement | null>;
  /** True from a submit until it is answered: a second press while sending does nothing. */
  inFlight: RefObject<boolean>;
}

/**
 * What both form islands do with their state besides rendering it: after a refused submit, focus
 * the first invalid field (its message is its description, so it is read out with it); after a
 * failure, make sure focus is somewhere a keyboard user can carry on from.
 */
export function useFormIsland(idPrefix: string, order: readonly string[]): FormIsland {
  const [state, dispatch] = useReducer(formReducer, initialFormState);
  const submitRef = useRef<HTMLButtonElement>(null);
  const inFlight = useRef(false);

  useEffect(() => {
    if (state.attempt === 0) return;
    const first = firstInvalidField(order, state.errors);
    if (first) document.getElementById(fieldId(idPrefix, first))?.focus();
    // Only a new refused submit moves focus; re-checks while typing must not.
  }, [state.attempt]);

  const previous = useRef(state.status);
  useEffect(() => {
    const wasSending = previous.current === 'submitting';
    previous.current = state.status;
    if (!wasSending || state.status !== 'idle') return;
    const active = document.activeElement;
    if (!active || active === document.body) submitRef.current?.focus();
  }, [state.status]);

  return { state, dispatch, submitRef, inFlight };
}
