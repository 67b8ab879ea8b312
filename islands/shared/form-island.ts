import { useEffect, useReducer, useRef, type ChangeEvent, type Dispatch, type FormEvent, type RefObject } from 'react';
import { fieldId, SUBMISSION_ID_FIELD } from './form-controls.tsx';
import { firstInvalidField, formReducer, initialFormState, type FormAction, type FormState } from './form-state.ts';
import type { Checked, FormEntries, SendContext } from './form-payload.ts';
import { sendForm } from './form-send.ts';
import { toast } from './toast.ts';

/** A random UUID; undefined where the browser has none (an insecure origin), and the handler derives one. */
function newSubmissionId(): string | undefined {
  return typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : undefined;
}

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

export interface FormFlow<P extends object> {
  action: string;
  order: readonly string[];
  /** Reads and checks the form's values with the handler's own schema. */
  check: (entries: FormEntries, context: SendContext) => Checked<P>;
  /** The destructive toast's text when sending fails (docs/product-rules.md#errors-and-messages). */
  failure: string;
  /** What happens once the handler has accepted the payload. */
  sent: (payload: P, form: HTMLFormElement) => Promise<void> | void;
}

/**
 * The submit flow both forms share: re-check a field as it changes once it has shown an error;
 * on submit check everything, send nothing when invalid, post once, show the handler's own field
 * errors, and on failure log, toast and keep every value for a retry.
 */
export function useFormFlow<P extends object>(island: FormIsland, flow: FormFlow<P>) {
  const { state, dispatch, inFlight } = island;
  // One id per lead, made on the first submit and kept through every retry until one succeeds, so
  // a retry after a lost answer is recognised by the handler and neither stored nor e-mailed twice.
  const submissionId = useRef<string | undefined>(undefined);
  const onChange = (event: ChangeEvent<HTMLFormElement>) => {
    const name = (event.target as { name?: unknown }).name;
    if (typeof name !== 'string' || !Object.hasOwn(state.errors, name)) return;
    const checked = flow.check(new FormData(event.currentTarget), { timestamp: '', source: '' });
    dispatch({ type: 'checked', field: name, error: checked.ok ? undefined : checked.errors[name] });
  };
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (inFlight.current || state.status !== 'idle') return;
    const form = event.currentTarget;
    const checked = flow.check(new FormData(form), { timestamp: new Date().toISOString(), source: window.location.origin });
    if (!checked.ok) { dispatch({ type: 'invalid', errors: checked.errors }); return; }
    inFlight.current = true;
    dispatch({ type: 'submit' });
    submissionId.current ??= newSubmissionId();
    const hidden = form.elements.namedItem(SUBMISSION_ID_FIELD);
    if (hidden instanceof HTMLInputElement) hidden.value = submissionId.current ?? '';
    const payload = submissionId.current ? { ...checked.payload, submissionId: submissionId.current } : checked.payload;
    const outcome = await sendForm(flow.action, payload, flow.order);
    inFlight.current = false;
    if (outcome.kind === 'refused') { dispatch({ type: 'invalid', errors: outcome.errors }); return; }
    if (outcome.kind === 'failed') {
      console.error('Failed to send message', outcome.reason);
      toast({ title: 'Error', description: flow.failure, variant: 'destructive' });
      dispatch({ type: 'failed' });
      return;
    }
    submissionId.current = undefined;
    dispatch({ type: 'sent' });
    await flow.sent(checked.payload, form);
  };
  return { onChange, onSubmit };
}
